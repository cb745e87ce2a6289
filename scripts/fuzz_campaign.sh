#!/bin/sh
# The whole campaign of issue 16 (bench/fuzz.py, every kind), recorded in bench/results:
# at least 100,000 inputs over sources, configurations, rules files and option sets, plus
# the cache and run-record states, concurrent runs and special files.
#   JOBS=14 sh scripts/fuzz_campaign.sh        # a 16-core machine: about 25 minutes
set -e
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
JOBS=${JOBS:-2}
SEED=${SEED:-1602}
$PY bench/fuzz.py --seed "$SEED" --count 200000 --seconds 600 --jobs "$JOBS" --minimize-seconds 300 \
    --out bench/results/fuzz-sources.json || true
for spec in "configs 60000 300" "rules 40000 300" "options 20000 240" "state 8000 180" "special 100 120"; do
    set -- $spec
    $PY bench/fuzz.py --kind "$1" --seed "$SEED" --count "$2" --seconds "$3" --jobs "$JOBS" || true
done
$PY bench/fuzz.py --kind concurrent --seed "$SEED" --count 40 --seconds 300 --jobs "$(( JOBS / 4 > 0 ? JOBS / 4 : 1 ))" || true
