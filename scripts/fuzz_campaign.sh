#!/bin/sh
# The whole campaign of issue 16 (bench/fuzz.py, every kind), recorded in bench/results
# (or $RESULTS): at least 100,000 inputs over sources, configurations, rules files and
# option sets, plus the cache and run-record states, special files and concurrent runs;
# then bench/fuzz_summary.py's record of the whole (fuzz-campaign.txt) over the records
# of this seed that are there.
#
#   sh scripts/fuzz_campaign.sh [PART | KIND...]
#     1      sources, configs, rules            (the first half)
#     2      options, state, special, concurrent (the second half)
#     all    both halves, one after the other (the default)
#     KIND   any of the kinds, in the order given
#   BUDGET   seconds for this invocation, shared by its kinds (default 510: a 9-minute run
#            with time to start); each kind stops starting inputs at its share
#   JOBS     workers (default: the CPU count less one, for the harness's parent)
#   PY       the Python (default .venv/bin/python where there is one, else python3: a
#            Python without a virtual environment finds the dependencies through
#            PYTHONPATH, e.g. PYTHONPATH=/tmp/site)
#   SEED     the campaign's seed (default 1801); RESULTS where the records go
#
# On a 16-core machine: BUDGET=510 sh scripts/fuzz_campaign.sh 1, then the same with 2.
set -e
cd "$(dirname "$0")/.."
if [ -z "$PY" ]; then
    if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
CPUS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
JOBS=${JOBS:-$(( CPUS > 2 ? CPUS - 1 : 1 ))}
SEED=${SEED:-1801}
BUDGET=${BUDGET:-510}
RESULTS=${RESULTS:-bench/results}
mkdir -p "$RESULTS"
"$PY" -c "import tree_sitter, tree_sitter_cuda, lark, jinja2, pathspec" || {
    echo "fuzz_campaign: $PY does not find the dependencies (a venv, or PYTHONPATH)" >&2; exit 2; }

[ $# -eq 0 ] && set -- all
KINDS=""
for arg in "$@"; do
    case "$arg" in
        1) KINDS="$KINDS sources configs rules" ;;
        2) KINDS="$KINDS options state special concurrent" ;;
        all) KINDS="$KINDS sources configs rules options state special concurrent" ;;
        sources|configs|rules|options|state|special|concurrent) KINDS="$KINDS $arg" ;;
        *) echo "fuzz_campaign: no part or kind '$arg' (1, 2, all, or sources configs rules options state special concurrent)" >&2
           exit 2 ;;
    esac
done

# A kind's weight: its share of the budget. Each run's start (imports, the workers' fork)
# and its end (the last inputs, the report) take a few seconds of it: START_S.
weight() {
    case "$1" in
        sources) echo 55 ;; configs) echo 15 ;; rules) echo 30 ;;
        options) echo 45 ;; state) echo 28 ;; special) echo 2 ;; concurrent) echo 25 ;;
    esac
}
START_S=8
TOTAL=0
for k in $KINDS; do TOTAL=$(( TOTAL + $(weight "$k") )); done
started=$(date +%s)
for k in $KINDS; do
    share=$(( BUDGET * $(weight "$k") / TOTAL - START_S ))
    [ "$share" -lt 5 ] && share=5
    echo "== $k: $share s, $JOBS jobs, seed $SEED" >&2
    case "$k" in
        sources)
            # Minimizing (if anything fails) comes out of the kind's share.
            minimize=$(( share / 5 ))
            "$PY" bench/fuzz.py --seed "$SEED" --count 100000000 --seconds $(( share - minimize )) --jobs "$JOBS" \
                --minimize-seconds "$minimize" --out "$RESULTS/fuzz-sources.json" \
                --failures-dir "$RESULTS/fuzz-failures" || true ;;
        special)
            # Its 44 cases (every place a path is accepted, every special file) are done
            # in seconds: the limit only bounds a run that hangs.
            "$PY" bench/fuzz.py --kind special --seed "$SEED" --count 1000 --seconds 120 --jobs "$JOBS" \
                --out "$RESULTS/fuzz-special.json" || true ;;
        concurrent)
            # Each trial runs two or three translators at once, and then each again.
            cjobs=$(( JOBS / 3 > 0 ? JOBS / 3 : 1 ))
            "$PY" bench/fuzz.py --kind concurrent --seed "$SEED" --count 100000 --seconds "$share" --jobs "$cjobs" \
                --out "$RESULTS/fuzz-concurrent.json" || true ;;
        *)
            "$PY" bench/fuzz.py --kind "$k" --seed "$SEED" --count 100000000 --seconds "$share" --jobs "$JOBS" \
                --out "$RESULTS/fuzz-$k.json" || true ;;
    esac
done
echo "== done in $(( $(date +%s) - started )) s" >&2
"$PY" bench/fuzz_summary.py --seed "$SEED" --results "$RESULTS" || true
