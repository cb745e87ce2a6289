#!/usr/bin/env python3
"""Scaling benchmark: is translation time (and memory) linear in input size and nesting
depth? Standard library only.

    python bench/scaling.py                                   # every case, about 10 minutes idle
    python bench/scaling.py --cases braces,launches --quick   # smaller sizes, a quick check
    python bench/scaling.py --code /tmp/old-checkout --timeout 120 --out /tmp/before.json

Cases (each input is generated, nothing is read but corpus/):

  braces    `void f() {` + N `{` + `cudaFree(0);` + N `}` + `}`: N = 2.5k, 5k, 10k, 20k
  launches  N launches nested as arguments, `k<<<1, 1>>>(k<<<1, 1>>>(... 0 ...))`, in a
            function: N = 2.5k, 5k, 10k, 20k (the IR keeps each launch's arguments as
            text, the launches inside it: its memory grows with the square of N)
  blocks    N launches, each in a block nested in the one before,
            `{ k<<<1, 1>>>(); { k<<<1, 1>>>(); ...} }`: N = 2.5k, 5k, 10k, 20k
  loops     N launches, each in the body of a loop nested in the loop of the one before,
            `for (...) { k<<<1, 1>>>(); for (...) { ...} }`: N = 1k, 2k, 4k (the runtime
            pass's graph capture found each loop's function with `.parent` walks: 1k
            took 30 s, exponent 1.7-1.9)
  longline  one line `void f() { cudaFree(0);cudaFree(0);... }`: 0.5, 1, 2, 5 MB
  corpus    the .cu/.cuh files of corpus/ concatenated (again and again, in name order)
            to 1, 2, 4 MB (launch facts walked every node for each template argument:
            1 MB took 33 s, 4 MB 173 s)
  fusion    N back-to-back launches of one elementwise kernel in one function, which
            the fusion pass fuses into one: N = 1k, 2k, 4k (the chain search compared
            each launch with the whole chain: 4k took 117 s)
  hkes      the launches case with --hip-kernel-execution-syntax: N = 2k, 4k, 8k (the
            launch used as a value was found with `.parent`, which costs the depth)
  rules     N user rename rules (a --rules file), each used once in one function:
            N = 1k, 2k, 4k (each rename went over every fix of the file)
  calls     N user call rules `call old_call_I(a, b) -> new_call_I(b, a, 0)`, each used
            once, with a CUDA call in an argument: N = 1k, 2k, 4k (each rewrite went over
            every fix and diagnostic of the file: 2k took 12 s)

Each size runs in a child process (a fresh interpreter, the translator imported before
the clock starts): `translator.pipeline.translate(path, data, Options(rocm_version=(6, 0)))`
--runs times (default 2), the best wall time counts (the CPU time of that run is
recorded too; on a shared machine the CPU time is the steadier figure); the peak
memory is the child's ru_maxrss, less the same figure taken after the imports and the
input were made (so the input itself is not counted). The child also checks the output
(the call renamed, every launch found in the IR, no internal error) so that a fast
wrong answer does not pass.

Per case it prints seconds per MB (size cases) or per 1k levels, launches or rules, a
linearity verdict: the CPU time per unit at the largest size over the CPU time per unit
at the smallest, PASS under 2 (the wall-time ratio beside it: other processes on a
shared machine make it noisy); and the fitted growth: the exponents k of time ~ size^k (wall and CPU)
and of memory ~ size^k, least squares over the sizes in log-log (1 is linear, 2
quadratic).
The depth target: 20,000 nested braces under 1 s. A child that runs past --timeout is
recorded as such (and the case fails).

The report is printed, written to --out (JSON, with the date, machine, git commit and
whether the tree was dirty, the command line and every figure) and next to it with a
.txt suffix.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import os
import platform
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "corpus"
MB = 1_000_000
KIB = 1 if sys.platform == "darwin" else 1024        # ru_maxrss unit: bytes on macOS, KiB on Linux

CASES = {
    # name: (sizes, unit, unit label, quick sizes)
    "braces": ((2_500, 5_000, 10_000, 20_000), 1_000, "1k levels", (1_000, 2_000, 4_000)),
    "launches": ((2_500, 5_000, 10_000, 20_000), 1_000, "1k levels", (1_000, 2_000, 4_000)),
    "blocks": ((2_500, 5_000, 10_000, 20_000), 1_000, "1k levels", (1_000, 2_000, 4_000)),
    "loops": ((1_000, 2_000, 4_000), 1_000, "1k levels", (500, 1_000, 2_000)),
    "longline": ((0.5, 1, 2, 5), 1, "MB", (0.1, 0.2, 0.4)),
    "corpus": ((1, 2, 4), 1, "MB", (0.25, 0.5, 1)),
    "fusion": ((1_000, 2_000, 4_000), 1_000, "1k launches", (250, 500, 1_000)),
    "hkes": ((2_000, 4_000, 8_000), 1_000, "1k levels", (500, 1_000, 2_000)),
    "rules": ((1_000, 2_000, 4_000), 1_000, "1k rules", (250, 500, 1_000)),
    "calls": ((1_000, 2_000, 4_000), 1_000, "1k rules", (250, 500, 1_000)),
}
FUSIBLE = b"__global__ void inc(float *x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
    b"    if (i < n) x[i] += 1.0f;\n}\n"
TARGET_BRACES_20K_S = 1.0
LINEAR_RATIO = 2.0


# ------------------------------------------------------------------ inputs

def make_input(case: str, size: float) -> bytes:
    if case == "braces":
        n = int(size)
        return b"void f() {\n" + b"{" * n + b"cudaFree(0);" + b"}" * n + b"\n}\n"
    if case in ("launches", "hkes"):
        n = int(size)
        return (b"__global__ void k(int x) {}\nvoid f() {\n" + b"k<<<1, 1>>>(" * n + b"0" + b")" * n
                + b";\n}\n")
    if case == "blocks":
        n = int(size)
        return b"__global__ void k() {}\nvoid f() {\n" + b"{ k<<<1, 1>>>();\n" * n + b"}" * n + b"\n}\n"
    if case == "loops":
        n = int(size)
        return (b"__global__ void k() {}\nvoid f(int m) {\n" + b"for (int i = 0; i < m; ++i) { k<<<1, 1>>>();\n" * n
                + b"}" * n + b"\n}\n")
    if case == "longline":
        return b"void f() { " + b"cudaFree(0);" * int(size * MB / 12) + b" }\n"
    if case == "fusion":
        return FUSIBLE + b"void f(float *x, int n) {\n" + b"    inc<<<(n + 255) / 256, 256>>>(x, n);\n" * int(size) \
            + b"}\n"
    if case == "rules":
        return b"void f() {\n" + b"".join(b"    old_name_%d();\n" % i for i in range(int(size))) + b"}\n"
    if case == "calls":
        return b"void f(float* p) {\n" + b"".join(b"    old_call_%d(p, cudaFree(p));\n" % i
                                                  for i in range(int(size))) + b"}\n"
    if case == "corpus":
        files = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".cu", ".cuh") and p.is_file())
        parts = [p.read_bytes() for p in files]
        if not parts:
            raise SystemExit(f"no .cu/.cuh files under {CORPUS}")
        out, total = [], 0
        while total < size * MB:
            for part in parts:
                out.append(part)
                total += len(part) + 1
                if total >= size * MB:
                    break
        return b"\n".join(out)
    raise ValueError(case)


def rules_text(size: float) -> str:
    """The rules case's file: a rename of each old_name_I, ids written (U001 to U999 are
    numbered, more need other letters: none of a built-in family)."""
    letters = "UVXYZ"       # (W, like H, L, F, ... is a family of built-in ids)
    return "".join(f"[{letters[i // 999]}{i % 999 + 1:03d}] rename old_name_{i} -> new_name_{i}\n"
                   for i in range(int(size)))


def calls_text(size: float) -> str:
    """The calls case's file: a call rewrite of each old_call_I (ids as rules_text's)."""
    letters = "UVXYZ"
    return "".join(f"[{letters[i // 999]}{i % 999 + 1:03d}] call old_call_{i}(a, b) -> new_call_{i}(b, a, 0)\n"
                   for i in range(int(size)))


def options_for(case: str, size: float, folder: str):
    from translator.passes import Options
    if case == "hkes":
        return Options(rocm_version=(6, 0), hip_kernel_execution_syntax=True)
    if case == "rules":
        path = Path(folder) / "scaling.rules"
        path.write_text(rules_text(size))
        return Options(rocm_version=(6, 0), rules=(str(path),))
    if case == "calls":
        path = Path(folder) / "scaling.rules"
        path.write_text(calls_text(size))
        return Options(rocm_version=(6, 0), rules=(str(path),))
    return Options(rocm_version=(6, 0))


def check_output(case: str, size: float, data: bytes, result) -> str | None:
    """What is wrong with a translation, or None."""
    if any(d.code.startswith("P00") and d.severity == "error" for d in result.diagnostics):
        return "internal error: " + next(d.format() for d in result.diagnostics if d.code.startswith("P00"))
    if case == "braces":
        if result.output.count(b"hipFree(0);") != 1 or b"cudaFree" in result.output:
            return "cudaFree not renamed exactly once"
    elif case in ("launches", "blocks", "hkes", "loops"):
        from translator.ir import module_of
        launches = module_of("x.cu", data).launches     # the input's IR, whole (translate builds what it reads)
        if len(launches) != int(size) or any(s.function != "f" for s in launches):
            return f"{len(launches)} launches in the IR, expected {int(size)}"
        if b"#include <hip/hip_runtime.h>" not in result.output:
            return "no runtime include"
        if case == "hkes" and result.output.count(b"hipLaunchKernelGGL(") != 1:
            return "not only the outermost launch (the only statement) written as hipLaunchKernelGGL"
    elif case == "fusion":
        if result.output.count(b"<<<") != 1 or b"fused_inc<<<" not in result.output:
            return "the launches are not fused into one"
    elif case == "rules":
        if any(b"old_name_%d(" % i in result.output or b"new_name_%d()" % i not in result.output
               for i in range(int(size))):
            return "not every name renamed"
    elif case == "calls":
        if result.output.count(b"new_call_") != int(size) or b"old_call_" in result.output \
                or result.output.count(b"(hipFree(p), p, 0);") != int(size):
            return "not every call rewritten with its argument renamed"
    elif case == "longline":
        if result.output.count(b"hipFree(0);") != data.count(b"cudaFree(0);") or b"cudaFree" in result.output:
            return "not every cudaFree renamed"
    elif case == "corpus":
        if result.skipped or not result.changed:
            return "nothing translated"
    return None


# ------------------------------------------------------------------ the child

def child(case: str, size: float, code: str | None, rounds: int = 2) -> None:
    """Run one case and size; print one JSON line."""
    if code:
        sys.path.insert(0, code)
    else:
        sys.path.insert(0, str(REPO))
    from translator.pipeline import translate
    data = make_input(case, size)
    folder = tempfile.mkdtemp(prefix="cu2hip-scaling-")
    options = options_for(case, size, folder)
    translate("warm.cu", b"void f() { cudaFree(0); }\n", options)     # tables, compiled patterns, rules read
    base_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * KIB / 1024
    runs = []
    result = None
    for _ in range(rounds):
        result = None                       # the previous run's result is not kept alive
        wall, cpu = time.perf_counter(), time.process_time()
        result = translate("scaling.cu", data, options)
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * KIB / 1024
    best = min(runs)
    import shutil
    shutil.rmtree(folder, ignore_errors=True)
    import translator
    print(json.dumps({
        "case": case, "size": size, "bytes": len(data), "wall_s": best[0], "cpu_s": best[1],
        "runs_wall_s": [r[0] for r in runs], "peak_rss_mib": peak_kib / 1024,
        "base_rss_mib": base_kib / 1024, "peak_rss_growth_mib": (peak_kib - base_kib) / 1024,
        "rounds": result.rounds, "applied": len(result.applied), "diagnostics": len(result.diagnostics),
        "problem": check_output(case, size, data, result), "translator": str(Path(translator.__file__).parent),
    }))


# ------------------------------------------------------------------ the parent

def run_child(case: str, size: float, code: str | None, timeout: float, rounds: int = 2) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", case, repr(size), "--runs", str(rounds)]
    if code:
        cmd += ["--code", code]
    started = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=REPO)
    except subprocess.TimeoutExpired:
        return {"case": case, "size": size, "timeout": True, "problem": f"over {timeout:g} s"}
    elapsed = time.perf_counter() - started
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"case": case, "size": size, "problem": f"child failed ({proc.returncode}): {tail[0]}",
                "process_s": elapsed}
    out = json.loads(lines[-1])
    out["process_s"] = elapsed
    return out


def verdicts(case: str, rows: list[dict]) -> dict:
    _, unit, label, _ = CASES[case]
    done = [r for r in rows if "wall_s" in r]
    for r in done:
        r["s_per_unit"] = r["wall_s"] / (r["size"] / unit)
        r["cpu_s_per_unit"] = r["cpu_s"] / (r["size"] / unit)
        r["mib_per_unit"] = r["peak_rss_growth_mib"] / (r["size"] / unit)
    failed = [r for r in rows if r.get("problem")]
    out = {"unit": label, "sizes": [r["size"] for r in rows]}
    if len(done) == len(rows) and len(done) >= 2:
        ratio = done[-1]["s_per_unit"] / done[0]["s_per_unit"]
        cpu_ratio = done[-1]["cpu_s_per_unit"] / done[0]["cpu_s_per_unit"] if done[0]["cpu_s"] > 0 else ratio
        mem_ratio = (done[-1]["mib_per_unit"] / done[0]["mib_per_unit"]) if done[0]["mib_per_unit"] > 0 else None
        out.update(time_ratio=ratio, cpu_ratio=cpu_ratio, memory_ratio=mem_ratio,
                   time_exponent=growth([r["size"] for r in done], [r["wall_s"] for r in done]),
                   cpu_exponent=growth([r["size"] for r in done], [r["cpu_s"] for r in done]),
                   memory_exponent=growth([r["size"] for r in done], [r["peak_rss_growth_mib"] for r in done]),
                   linear="PASS" if cpu_ratio < LINEAR_RATIO and not failed else "FAIL")
    else:
        out.update(time_ratio=None, cpu_ratio=None, memory_ratio=None, time_exponent=None, cpu_exponent=None, memory_exponent=None,
                   linear="FAIL")
    if failed:
        out["problems"] = [f"{r['size']}: {r['problem']}" for r in failed]
    return out


def growth(sizes: list[float], values: list[float]) -> float | None:
    """The exponent k of values ~ sizes^k: the least-squares slope in log-log (None where
    a value is not positive)."""
    if len(sizes) < 2 or any(v <= 0 for v in values):
        return None
    xs, ys = [math.log(x) for x in sizes], [math.log(v) for v in values]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / spread if spread else None


def git_info() -> dict:
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    status = git("status", "--porcelain")
    return {"commit": git("rev-parse", "HEAD") or None, "dirty": bool(status),
            "dirty_files": status.splitlines()[:50]}


def fmt_size(case: str, size: float) -> str:
    if CASES[case][2] == "MB":
        return f"{size:g} MB"
    return f"{int(size):,} " + {"fusion": "launches", "rules": "rules", "calls": "rules"}.get(case, "deep")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated: " + ", ".join(CASES))
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a quick check, not the record)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds a child may run (default 600)")
    ap.add_argument("--code", help="put this folder first on the children's sys.path (another checkout)")
    ap.add_argument("--runs", type=int, default=2, help="translations per size, the best counts (default 2)")
    ap.add_argument("--out", default=str(REPO / "bench/results/scaling.json"))
    ap.add_argument("--child", nargs=2, metavar=("CASE", "SIZE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], float(args.child[1]), args.code, max(1, args.runs))
        return
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        ap.error(f"unknown case(s): {', '.join(unknown)}")
    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    info = git_info()
    command = " ".join(shlex.quote(a) for a in [Path(sys.executable).name, *sys.argv])
    say(f"cu2hip scaling benchmark  {_dt.datetime.now().isoformat(timespec='seconds')}")
    say(f"command: {command}")
    say(f"git: {info['commit']}{' (dirty)' if info['dirty'] else ''}   python {platform.python_version()}   "
        f"{platform.machine()} x{os.cpu_count()}   translator: {args.code or REPO}")
    say(f"time: best of {max(1, args.runs)} in-process runs in a child process (wall, and its CPU time); "
        "memory: the child's peak RSS growth")
    say()
    results = {}
    for case in cases:
        sizes = CASES[case][3] if args.quick else CASES[case][0]
        rows = []
        say(f"{case}:")
        say(f"  {'size':>14} {'bytes':>11} {'wall s':>9} {'cpu s':>8} {'per ' + CASES[case][2]:>14} "
            f"{'peak MiB':>9} {'MiB/unit':>9}")
        for size in sizes:
            row = run_child(case, size, args.code, args.timeout, max(1, args.runs))
            rows.append(row)
            if "wall_s" in row:
                unit = row["size"] / CASES[case][1]
                say(f"  {fmt_size(case, size):>14} {row['bytes']:>11,} {row['wall_s']:>9.3f} {row['cpu_s']:>8.3f} "
                    f"{row['wall_s'] / unit:>12.3f} s {row['peak_rss_growth_mib']:>9.1f} "
                    f"{row['peak_rss_growth_mib'] / unit:>9.1f}"
                    + (f"  PROBLEM: {row['problem']}" if row['problem'] else ""))
            else:
                say(f"  {fmt_size(case, size):>14} {'':>11} {'-':>9}  {row['problem']}")
        verdict = verdicts(case, rows)
        results[case] = {"rows": rows, **verdict}
        ratio = verdict["time_ratio"]
        mem = verdict["memory_ratio"]
        cpu = verdict["cpu_ratio"]
        say(f"  linearity: CPU time per {verdict['unit']} at the largest size / at the smallest = "
            + (f"{cpu:.2f}" if cpu is not None else "n/a")
            + (f" (wall {ratio:.2f})" if ratio is not None else "")
            + (f" (memory {mem:.2f})" if mem is not None else "") + f"  -> {verdict['linear']} (< {LINEAR_RATIO:g})")
        if verdict["time_exponent"] is not None:
            memory = verdict["memory_exponent"]
            say(f"  fitted growth: time ~ size^{verdict['time_exponent']:.2f} (cpu ^{verdict['cpu_exponent']:.2f}), "
                "memory ~ "
                + (f"size^{memory:.2f}" if memory is not None else "n/a") + " (1: linear, 2: quadratic)")
        if case == "braces":
            at = next((r for r in rows if r.get("size") == 20_000 and "wall_s" in r), None)
            if at is not None:
                ok = at["wall_s"] < TARGET_BRACES_20K_S and not at["problem"]
                results[case]["target_20k_braces"] = {"seconds": at["wall_s"], "target_s": TARGET_BRACES_20K_S,
                                                      "pass": ok}
                say(f"  target: 20,000 nested braces in {at['wall_s']:.3f} s (under {TARGET_BRACES_20K_S:g} s) -> "
                    f"{'PASS' if ok else 'FAIL'}")
        say()
    overall = all(r["linear"] == "PASS" for r in results.values()) and all(
        r.get("target_20k_braces", {"pass": True})["pass"] for r in results.values())
    say(f"overall: {'PASS' if overall else 'FAIL'}")
    record = {
        "date": _dt.datetime.now().isoformat(timespec="seconds"), "command": command, "git": info,
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "translator": args.code or str(REPO), "quick": args.quick, "timeout_s": args.timeout, "runs": max(1, args.runs),
        "linear_ratio_limit": LINEAR_RATIO, "cases": results, "pass": overall,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n")
    out.with_suffix(".txt").write_text("\n".join(lines) + "\n")
    print(f"wrote {out} and {out.with_suffix('.txt')}")


if __name__ == "__main__":
    main()
