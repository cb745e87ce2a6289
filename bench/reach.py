"""Reach of the optimizing passes: over programs, how many each rewrite family fires on,
at how many sites, and the commonest reasons it refused.

    python bench/reach.py TREE... [--json OUT.json] [-- TRANSLATE OPTIONS]

Each TREE's entries are the programs: a CUDA file (`.cu`, `.cuh`) is one program, a
folder is one project (translated as a tree, so that its headers and other files count).
A TREE that is itself a file is one program. Each is translated in process
(`cu2hip diff PROGRAM --format json --no-cache`, plus the options after `--`), and its
edits and diagnostics are counted per family:

    family          edits              refusals
    fusion          F001               F002
    rebalancing     L007, L008         L009
    launch bounds   L001               L002, L003
    runtime         R0xx edits         R0xx notes and warnings
    warp            W2xx edits         W2xx notes and warnings

A refusal is a diagnostic of an optimizing family that edits nothing (a rule of the
refusals column whose diagnostic has no fix of its rule in that file); its reason is the
message after the subject's first ": ", with quoted names and numbers folded (and the
place a launch-bounds refusal names dropped), so that the same reason on two kernels
counts once. Each family's line gives the programs and sites it edited, and the programs
and diagnostics it refused; `--json` also lists, per family, each program it edited and
at how many sites ("where": what tests/test_corpus_reach.py holds the corpus to). An
edit that joins several rewrites of the same bytes carries one rule and every reason: a
diagnostic whose own fix's reason it holds counts as made.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FAMILIES = {
    "fusion": lambda r: r == "F001",
    "rebalancing": lambda r: r in ("L007", "L008"),
    "launch bounds": lambda r: r == "L001",
    "runtime": lambda r: r.startswith("R"),
    "warp": lambda r: r.startswith("W2"),
}
REFUSALS = {
    "fusion": re.compile(r"F002"),
    "rebalancing": re.compile(r"L009"),
    "launch bounds": re.compile(r"L00[23]"),
    "runtime": re.compile(r"R\d{3}"),
    "warp": re.compile(r"W2\d\d"),
}
_SUFFIXES = (".cu", ".cuh")


def programs(trees: list[str]) -> list[Path]:
    out = []
    for tree in trees:
        path = Path(tree)
        if path.is_file():
            out.append(path)
            continue
        for entry in sorted(path.iterdir()):
            if entry.name.startswith("."):
                continue
            if entry.is_dir() or entry.suffix.lower() in _SUFFIXES:
                out.append(entry)
    return out


def translate(program: Path, options: list[str]) -> dict:
    from translator.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(["diff", str(program), "--format", "json", "--no-cache", *options])
        except SystemExit:
            pass
    try:
        return json.loads(out.getvalue())
    except ValueError:
        return {"files": []}


def reason(message: str) -> str:
    tail = message.split(": ", 1)[1] if ": " in message else message
    tail = re.sub(r"'[^']*'", "'...'", tail)
    tail = re.sub(r"\b\d+\b", "N", tail)
    tail = re.sub(r"\Aat \S+?:N(?::N)?, ", "", tail)      # a launch-bounds refusal's "at FILE:LINE:COL, "
    return tail[:160]


def measure(paths: list[Path], options: list[str]) -> dict:
    fired = {f: [0, 0] for f in FAMILIES}          # programs, sites
    refused = {f: [0, 0] for f in FAMILIES}        # programs, diagnostics
    reasons: collections.Counter = collections.Counter()
    where: dict[str, dict[str, int]] = {f: {} for f in FAMILIES}     # family -> program -> sites
    for program in paths:
        found = translate(program, options)
        sites = collections.Counter()
        refusals = collections.Counter()
        for f in found.get("files", []):
            fixes = {(e["rule"], e.get("fix")) for e in f.get("edits", [])}
            # An edit that joins several rewrites of the same bytes (a launch rebalanced,
            # then the loop around it captured as a graph) is under one rule, with every
            # reason: a diagnostic's own fix whose reason it holds was made too.
            made = [rule for rule, _ in fixes]
            joined = [e.get("reason", "") for e in f.get("edits", []) if "; then " in e.get("reason", "")]
            for d in f.get("diagnostics", []):
                fix = d.get("fix") or {}
                if fix.get("rule") and fix["rule"] not in made and any(fix.get("reason", "") in r for r in joined):
                    made.append(fix["rule"])
                    fixes.add((fix["rule"], None))
            for rule in made:
                for family, member in FAMILIES.items():
                    if member(rule):
                        sites[family] += 1
            for d in f.get("diagnostics", []):
                rule = d.get("code", "")
                family = next((f for f, member in REFUSALS.items() if member.fullmatch(rule)), None)
                if family is not None and not any(r == rule for r, _ in fixes):
                    refusals[family] += 1
                    reasons[f"{rule} {reason(d.get('message', ''))}"] += 1
        for counts, totals in ((sites, fired), (refusals, refused)):
            for family, count in counts.items():
                totals[family][0] += 1
                totals[family][1] += count
        for family, count in sites.items():
            where[family][program.as_posix()] = count
    return {"programs": len(paths), "fired": fired, "refused": refused, "refusals": reasons.most_common(15),
            "where": where}


def show(result: dict) -> str:
    lines = [f"programs: {result['programs']}", "family          programs  sites  refused  refusals"]
    for family, (n, sites) in result["fired"].items():
        no, count = result["refused"][family]
        lines.append(f"{family:<15} {n:>8}  {sites:>5}  {no:>7}  {count:>8}")
    lines.append("top refusal reasons (count, rule, reason):")
    lines += [f"  {count:>4}  {text}" for text, count in result["refusals"]]
    return "\n".join(lines)


def split_options(argv: list[str]) -> tuple[list[str], list[str]]:
    """(the script's own arguments, the translate options after `--`)."""
    if "--" not in argv:
        return argv, []
    return argv[:argv.index("--")], argv[argv.index("--") + 1:]


def run() -> None:
    argv, options = split_options(sys.argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    result = measure(programs(args.trees), options)
    print(show(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    run()
