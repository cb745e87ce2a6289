"""Reach of the optimizing passes: over programs, how many each rewrite family fires on,
at how many sites, and the commonest reasons it refused.

    python bench/reach.py TREE... [--json OUT.json] [-- TRANSLATE OPTIONS]

Each TREE's entries are the programs: a CUDA file (`.cu`, `.cuh`) is one program, a
folder is one project (translated as a tree, so that its headers and other files count).
A TREE that is itself a file is one program. Each is translated in process
(`cu2hip diff PROGRAM --format json --no-cache`, plus the options after `--`), and its
edits and diagnostics are counted per family:

    fusion F001, rebalancing L007/L008, launch bounds L001, runtime R0xx edits,
    warp-size W2xx edits

A refusal is a diagnostic of an optimizing family that edits nothing (F002, L009, R0xx
and W2xx notes and warnings); its reason is the message after the subject's first ": ",
with quoted names and numbers folded, so that the same reason on two kernels counts once.
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
_REFUSALS = re.compile(r"F002|L009|R\d{3}|W2\d\d")
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
    return tail[:160]


def measure(paths: list[Path], options: list[str]) -> dict:
    fired = {f: [0, 0] for f in FAMILIES}          # programs, sites
    refused: collections.Counter = collections.Counter()
    for program in paths:
        found = translate(program, options)
        sites = collections.Counter()
        for f in found.get("files", []):
            fixes = {(e["rule"], e.get("fix")) for e in f.get("edits", [])}
            for rule, _ in fixes:
                for family, member in FAMILIES.items():
                    if member(rule):
                        sites[family] += 1
            for d in f.get("diagnostics", []):
                rule = d.get("code", "")
                if _REFUSALS.fullmatch(rule) and not any(r == rule for r, _ in fixes):
                    refused[f"{rule} {reason(d.get('message', ''))}"] += 1
        for family, count in sites.items():
            fired[family][0] += 1
            fired[family][1] += count
    return {"programs": len(paths), "fired": fired, "refusals": refused.most_common(15)}


def show(result: dict) -> str:
    lines = [f"programs: {result['programs']}", "family          programs  sites"]
    for family, (n, sites) in result["fired"].items():
        lines.append(f"{family:<15} {n:>8}  {sites:>5}")
    lines.append("top refusal reasons (count, rule, reason):")
    lines += [f"  {count:>4}  {text}" for text, count in result["refusals"]]
    return "\n".join(lines)


def run() -> None:
    argv = sys.argv[1:]
    options = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
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
