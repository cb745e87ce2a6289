#!/usr/bin/env python3
"""The whole campaign's record (standard library only): reads the records of every kind
of one seed (`fuzz-sources.json` and `fuzz-KIND.json`, written by bench/fuzz.py) and
writes `fuzz-campaign.txt` and `.json` beside them: each kind's inputs and failures, and
issue 16's criterion:

  * at least 100,000 inputs over sources, configurations, rules files and option sets;
  * 0 tracebacks (exceptions, and crashed workers), 0 hangs, 0 stale or foreign bytes
    written (stale-bytes, code-ran), 0 non-idempotent outputs, 0 changed-outside-edits;
    and none of the other failures either (unlocated errors, bad exits, P003 where the
    input parses, P005, unsound bounds).

A kind whose record is missing, or is of another seed, is reported as missing, and the
criterion is not met.

    python bench/fuzz_summary.py --seed 1801 [--results bench/results]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KINDS = ("sources", "configs", "rules", "options", "state", "special", "concurrent")
COUNTED = ("sources", "configs", "rules", "options")      # the 100,000 inputs
FLOOR = 100_000
# Each failure kind of either harness, under the criterion's heading.
HEADINGS = {"exception": "tracebacks", "crash": "tracebacks", "hang": "hangs", "stale-bytes": "stale or foreign bytes",
            "code-ran": "stale or foreign bytes", "non-idempotent": "non-idempotent",
            "changed-outside-edits": "changed-outside-edits"}


def failures_of(record: dict) -> dict[str, int]:
    """Failure kind -> inputs that had it (every kind of the record's harness)."""
    counts = record["counts"]
    if record.get("kind", "sources") == "sources" and "inputs-with-failures" in counts:
        names = ("exception", "crash", "hang", "changed-outside-edits", "non-idempotent", "p003-on-parsing", "p005",
                 "unsound-bound")
    else:
        names = ("exception", "hang", "unlocated", "bad-exit", "non-idempotent", "stale-bytes", "code-ran")
    return {k: int(counts.get(k, 0)) for k in names}


def summarize(results: Path, seed: int) -> dict:
    kinds = {}
    for kind in KINDS:
        path = results / f"fuzz-{kind}.json"
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kinds[kind] = {"missing": f"no record at {path}"}
            continue
        if record.get("seed") != seed:
            kinds[kind] = {"missing": f"{path.name} is of seed {record.get('seed')}, not {seed}"}
            continue
        kinds[kind] = {"inputs": record["counts"]["inputs"], "failures": failures_of(record),
                       "seconds": record["seconds"]["campaign"], "jobs": record.get("jobs"),
                       "date": record.get("date"), "commit": record.get("git", {}).get("commit", ""),
                       "machine": record.get("machine", "")}
    counted = sum(kinds[k].get("inputs", 0) for k in COUNTED)
    totals: dict[str, int] = {}
    for k in kinds.values():
        for name, n in k.get("failures", {}).items():
            totals[name] = totals.get(name, 0) + n
    missing = [k for k, v in kinds.items() if "missing" in v]
    met = not missing and counted >= FLOOR and not any(totals.values())
    return {"seed": seed, "kinds": kinds, "inputs_counted": counted, "floor": FLOOR, "failures": totals,
            "missing": missing, "criterion_met": met}


def report(s: dict) -> str:
    lines = [f"cu2hip fuzz campaign of seed {s['seed']} (bench/fuzz_summary.py over the records of every kind)", ""]
    lines.append(f"{'kind':<12}{'inputs':>10}{'seconds':>9}{'jobs':>6}  failures")
    for kind, k in s["kinds"].items():
        if "missing" in k:
            lines.append(f"{kind:<12}{'-':>10}{'-':>9}{'-':>6}  MISSING: {k['missing']}")
            continue
        bad = ", ".join(f"{n} {v}" for n, v in k["failures"].items() if v) or "none"
        lines.append(f"{kind:<12}{k['inputs']:>10,}{k['seconds']:>9,}{k['jobs'] or '-':>6}  {bad}")
    by_heading: dict[str, int] = {}
    for name, n in s["failures"].items():
        heading = HEADINGS.get(name, "other failures")
        by_heading[heading] = by_heading.get(heading, 0) + n
    lines += ["", f"inputs over sources, configs, rules and options: {s['inputs_counted']:,} "
              f"(at least {s['floor']:,} wanted)"]
    for heading in ("tracebacks", "hangs", "stale or foreign bytes", "non-idempotent", "changed-outside-edits",
                    "other failures"):
        lines.append(f"  {heading:<26}{by_heading.get(heading, 0):>6}")
    lines += ["", "criterion met: " + ("yes" if s["criterion_met"] else "NO")]
    machines = sorted({k["machine"] for k in s["kinds"].values() if k.get("machine")})
    commits = sorted({k["commit"] for k in s["kinds"].values() if k.get("commit")})
    lines += [f"machine: {m}" for m in machines] + [f"commit: {c}" for c in commits]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--results", type=Path, default=REPO / "bench" / "results")
    args = ap.parse_args(argv)
    s = summarize(args.results, args.seed)
    text = report(s)
    print(text, end="")
    (args.results / "fuzz-campaign.json").write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    (args.results / "fuzz-campaign.txt").write_text(text, encoding="utf-8")
    return 0 if s["criterion_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
