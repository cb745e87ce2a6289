#!/usr/bin/env python3
"""Runtime-overhead benchmark: each pattern of the runtime pass, the original loop against
its `--target cuda` rewrite, timed with CUDA events (python3 and nvcc only).

    python3 bench/runtime.py --out bench/results/runtime-h200.json
        [--sizes 1024,65536,1048576,16777216] [--arch sm_90] [--nvcc nvcc] [--build-only]
        [--retranslate]

The programs are bench/runtime/<pattern>.cu; each times its loop (`run_pattern`, ITERS
iterations) with CUDA events after one warm-up call, for each element count, checks the
result and prints one JSON line per count (bench/runtime/common.cuh). Variants:

* alloc (pattern 1, R001): `original` (cudaMalloc/cudaFree per iteration), `rewrite`
  (bench/runtime/alloc.rewritten.cu: the pass's hoist), `pool` (alloc_pool.cu: the fix R002
  names where hoisting is refused, stream-ordered allocation from the default pool with its
  release threshold raised, written by hand);
* handles (pattern 5, R003): `original` (a stream and an event per iteration) and `rewrite`;
* graph1 (pattern 4b, R012): `original` (a loop of one short launch on the default stream,
  most benchmark programs' repeat loop) and `rewrite` (16 launches captured once as a graph
  on a stream of the rewrite's own, the graph launched on the default stream every 16th
  iteration, the rest launched as written);
* sync (pattern 2, R005): `original` (cudaDeviceSynchronize in the check after every
  launch) and `fix`: the fix R005 reports (the check in `#ifndef NDEBUG`), applied to the
  original's text here and built with -DNDEBUG. The pass does not rewrite it.
* pageable (pattern 3, R007): `original` (a malloc'd host buffer copied down and up with
  cudaMemcpy at every iteration; ITERS 100) and `rewrite` (the buffer allocated pinned:
  R007's edit, written by hand in pageable.rewritten.cu: the element counts here are run-time
  values, for which the pass makes no rewrite but reports R008 with this fix; it makes it
  where a buffer is known to hold MIN_PINNED_BYTES or more, the smallest size this
  benchmark measured pinning to pay at);
* graph (pattern 4, R012): `original` (a loop of four short launches on a stream of the
  function's) and `rewrite` (the four captured once as a CUDA graph, cudaGraphLaunch per
  iteration), over the element counts: where the kernels are short the graph saves the
  launches' dispatch, where they are long it saves nothing. The saving per launch at the
  smallest count, ((original - rewrite) / ITERS / 4), is what R012 and R013 quote as
  their estimate (translator/passes/runtime/graphs.py MEASURED_SAVING_US, checked
  against the recorded result by tests/test_runtime.py).

R006 and R010 (a device-wide synchronisation after one stream's work, reported or
replaced by the stream's) are not measured: where R010 proves the replacement, every piece
of device work is on that stream, so both calls wait for the same work and differ only
by the cost of the call itself (on NVIDIA; on AMD a device-wide wait visits every queue,
which this machine cannot show); where other streams have work pending the pass does
not rewrite.

The `rewrite` sources are committed translations (`python -m translator translate
bench/runtime/X.cu --target cuda --stdout`; tests/test_runtime.py checks they are
current), so that the GPU machine needs no translator; `--retranslate` makes them afresh.
The ratio recorded is original time / variant time per element count (above 1: faster).
`--build-only` compiles every variant and stops (no GPU needed).
Exit status: 0; 1 when a build, a run or a result check failed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SOURCES = REPO / "bench" / "runtime"
PATTERNS = {
    "alloc": {"rule": "R001", "what": "cudaMalloc/cudaFree of a loop-invariant size in every iteration",
              "variants": {"original": ("alloc.cu", ()), "rewrite": ("alloc.rewritten.cu", ()),
                           "pool": ("alloc_pool.cu", ())}},
    "handles": {"rule": "R003", "what": "a stream and an event created and destroyed in every iteration",
                "variants": {"original": ("handles.cu", ()), "rewrite": ("handles.rewritten.cu", ())}},
    "pageable": {"rule": "R007", "what": "a malloc'd host buffer copied with cudaMemcpy in every iteration",
                 "variants": {"original": ("pageable.cu", ()), "rewrite": ("pageable.rewritten.cu", ())}},
    "graph": {"rule": "R012", "what": "a loop of four short launches and nothing else, on the function's stream",
              "variants": {"original": ("graph.cu", ()), "rewrite": ("graph.rewritten.cu", ())}},
    "graph1": {"rule": "R012", "what": "a loop of one short launch and nothing else, on the default stream",
               "variants": {"original": ("graph1.cu", ()), "rewrite": ("graph1.rewritten.cu", ())}},
    "sync": {"rule": "R005", "what": "cudaDeviceSynchronize in the error check after every launch",
             "variants": {"original": ("sync.cu", ()), "fix": ("sync.fixed.cu", ("-DNDEBUG",))}},
}
SYNC_LINE = "    CHECK(cudaDeviceSynchronize());\n"
GRAPH_LAUNCHES = 4      # the launches of graph.cu's loop
REWRITTEN = ("alloc", "handles", "graph", "graph1")     # the patterns whose `rewrite` is the pass's


def debug_only(text: str) -> str:
    """The fix R005 names: the synchronising check in `#ifndef NDEBUG`."""
    if text.count(SYNC_LINE) != 1:       # the loop's (main's last one is indented less)
        raise SystemExit("bench/runtime/sync.cu changed: the fix cannot be applied")
    head, rest = text.split(SYNC_LINE, 1)
    return head + "#ifndef NDEBUG\n" + SYNC_LINE + "#endif\n" + rest


def retranslate() -> None:
    for name in REWRITTEN:
        out = subprocess.run([sys.executable, "-m", "translator", "translate", str(SOURCES / f"{name}.cu"),
                              "--target", "cuda", "--stdout", "-q"], cwd=REPO, capture_output=True, check=True)
        (SOURCES / f"{name}.rewritten.cu").write_bytes(out.stdout)


def build(nvcc: str, arch: str, src: Path, exe: Path, extra: tuple[str, ...]) -> tuple[list[str], str | None]:
    cmd = [nvcc, "-O3", f"-arch={arch}", "-std=c++17", *extra, "-I", str(SOURCES),
           "-o", str(exe), str(src)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return cmd, None if proc.returncode == 0 else proc.stderr[-4000:]


def run(exe: Path, sizes: list[int], timeout: int) -> tuple[list[dict], str | None]:
    try:
        proc = subprocess.run([str(exe), *map(str, sizes)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return [], f"timed out after {timeout} s"
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0:
        return rows, f"exit {proc.returncode}: {proc.stderr[-2000:]}"
    return rows, None


def version(nvcc: str) -> str:
    try:
        return subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    except (OSError, IndexError):
        return "unknown"


def gpu() -> str | None:
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    proc = subprocess.run([smi, "--query-gpu=name,driver_version", "--format=csv,noheader"], capture_output=True,
                          text=True)
    return proc.stdout.strip() or None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, help="the JSON results file")
    p.add_argument("--sizes", default="1024,65536,1048576,16777216", help="element counts (float32), comma-separated")
    p.add_argument("--arch", default="sm_90", help="nvcc -arch (default sm_90: H100/H200)")
    p.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    p.add_argument("--timeout", type=int, default=300, help="seconds per binary run")
    p.add_argument("--build-only", action="store_true", help="compile every variant and stop")
    p.add_argument("--retranslate", action="store_true", help="translate the rewrites afresh (needs the translator)")
    args = p.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.retranslate:
        retranslate()
    failed = False
    results = {"command": " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]),
               "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "host": platform.node(),
               "nvcc": version(args.nvcc), "gpu": gpu(), "arch": args.arch, "iters": "per row", "sizes": sizes,
               "patterns": {}}
    with tempfile.TemporaryDirectory(prefix="cu2hip-runtime-") as tmp:
        work = Path(tmp)
        (work / "sync.fixed.cu").write_text(debug_only((SOURCES / "sync.cu").read_text()))
        for pattern, spec in PATTERNS.items():
            entry = {"rule": spec["rule"], "what": spec["what"], "variants": {}, "ratio": {}}
            for variant, (source, extra) in spec["variants"].items():
                src = work / source if (work / source).exists() else SOURCES / source
                exe = work / f"{pattern}-{variant}"
                print(f"build {pattern}/{variant}: {src.name}", file=sys.stderr)
                cmd, error = build(args.nvcc, args.arch, src, exe, extra)
                row = {"source": str(src.relative_to(REPO)) if src.is_relative_to(REPO) else f"(generated) {source}",
                       "build": " ".join(shlex.quote(c) for c in cmd)}
                if error:
                    row["error"] = error
                    failed = True
                elif not args.build_only:
                    print(f"run {pattern}/{variant}", file=sys.stderr)
                    rows, error = run(exe, sizes, args.timeout)
                    row["rows"] = rows
                    if error or not all(r.get("ok") for r in rows):
                        row["error"] = error or "a result check failed"
                        failed = True
                entry["variants"][variant] = row
            base = {r["n"]: r["ms"] for r in entry["variants"]["original"].get("rows", [])}
            for variant, row in entry["variants"].items():
                if variant != "original":
                    entry["ratio"][variant] = {str(r["n"]): round(base[r["n"]] / r["ms"], 3)
                                               for r in row.get("rows", []) if r["n"] in base and r["ms"] > 0}
            if pattern == "graph":      # R012/R013's estimate: the dispatch saved per launch
                rows = {r["n"]: r["us_per_iter"] for r in entry["variants"]["rewrite"].get("rows", [])}
                entry["saving_us_per_launch"] = {
                    str(r["n"]): round((r["us_per_iter"] - rows[r["n"]]) / GRAPH_LAUNCHES, 3)
                    for r in entry["variants"]["original"].get("rows", []) if r["n"] in rows}
            results["patterns"][pattern] = entry
    if args.build_only:
        print("built every variant" if not failed else "a build failed", file=sys.stderr)
    else:
        for pattern, entry in results["patterns"].items():
            for variant, ratios in entry["ratio"].items():
                shown = ", ".join(f"n={n}: {r}x" for n, r in ratios.items())
                print(f"{pattern} {variant} vs original: {shown or 'not measured'}")
    if args.out and not args.build_only:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2) + "\n")
    elif args.build_only:
        for entry in results["patterns"].values():
            for row in entry["variants"].values():
                if "error" in row:
                    print(row["error"], file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
