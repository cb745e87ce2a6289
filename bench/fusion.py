#!/usr/bin/env python3
"""Kernel-fusion benchmark: the fusion pass's output against the unfused chain and hand-fused kernels (stdlib only).

    python bench/fusion.py [--max-mib 1024] [--reps 30] [--out bench/results/fusion.md] [--keep DIR]

For each chain source bench/fusion/chain{2,3,4}.cu (2, 3 and 4 float32 elementwise
kernels launched back to back by `run_chain`; see bench/fusion/harness.cuh):

1. translates it with `python -m translator translate SRC --target cuda --stdout -q`
   (CUDA in, CUDA out: the fusion pass replaces run_chain's launches with one launch of a
   fused kernel). An output equal to the input is reported as "not fused"; the original
   is still built and run, for the unfused and hand-fused figures;
2. compiles the original and the translated copy with `nvcc -O3 -arch=sm_90`;
3. runs both. Each binary times, for every size per buffer (1, 4, 16, 64, 256, 1024 MiB,
   up to --max-mib), its three variants: `chain` (run_chain's launches), `hand_kept` (one
   hand-written kernel that still stores every intermediate) and `hand_dropped` (one
   kernel keeping the intermediates in registers), the median of --reps runs (or of as
   many as take 20 ms, when that is more: bench/fusion/harness.cuh), and checks that
   each variant's output equals run_chain's (so the translated binary checks the fused
   chain against the hand-written kernels);
4. reports per size: unfused (the original's chain), auto-fused (the translated copy's
   chain), hand_kept and hand_dropped (from the original), their speed-ups over unfused,
   auto-fused against each hand version, and the bandwidth each achieves against the
   H200's peak (4.8 TB/s, HBM3e; --peak-gbps).

Bandwidth counts the least traffic a variant must make (the formulas are in each chain
source): unfused reads and writes every intermediate once per kernel that touches it;
hand_kept and the auto-fused kernel read each input and write each intermediate and the
output once (the fused kernel must keep storing the intermediates: run_chain's caller
may read them); hand_dropped writes only the output.

The report is markdown, on stdout and with --out in a file. Without a GPU the sources
are still translated and compiled, and the report says that no GPU is present.

A GPU machine without the translator's dependencies (tree-sitter for this Python) can
run translations made elsewhere: `--save-translations DIR` writes each chain's
translation to DIR/<chain>.cu (and its diagnostics to DIR/<chain>.diag) and stops;
`--translations DIR` reads them instead of running the translator.
Exit status: 0; 1 when a step failed (translation, compilation, a run, or a variant's
output differing from run_chain's); 3 when there is no GPU to run on.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import REPO, child_env, command_line, git_info, machine_info, now  # noqa: E402

SOURCES = REPO / "bench" / "fusion"
CHAINS = ("chain2", "chain3", "chain4")
# NVIDIA H200: 4.8 TB/s of HBM3e (/work/shared/reference/FACTS.md gives no other figure).
PEAK_GBPS = 4800.0
NO_GPU_EXIT = 2          # what a chain binary returns when there is no CUDA device (harness.cuh)
NO_GPU_TEXT = "no CUDA GPU"
MIB = 1 << 20


@dataclass
class Row:
    ms: float
    bytes_moved: float
    gbps: float


@dataclass
class RunResult:
    """One binary's run: the CSV rows by (variant, bytes per buffer) and what went wrong."""
    rc: int | None = None
    rows: dict[tuple[str, int], Row] = field(default_factory=dict)
    gpu: str | None = None
    no_gpu: str | None = None
    mismatches: list[str] = field(default_factory=list)
    error: str | None = None
    wall_s: float = 0.0


@dataclass
class ChainResult:
    name: str
    kernels: int
    fused: bool | None = None            # None: the translation failed
    translate_error: str | None = None
    diagnostics: str = ""
    diff: str = ""
    build: dict[str, str | None] = field(default_factory=dict)   # "original"/"fused" -> error or None
    runs: dict[str, RunResult] = field(default_factory=dict)


def step(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ translate, build, run

def translate(src: Path, env: dict) -> tuple[int, bytes, str]:
    cmd = [sys.executable, "-m", "translator", "translate", str(src), "--target", "cuda", "--stdout", "-q"]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")


def nvcc_version(nvcc: str) -> str:
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60).stdout
    except OSError as exc:
        return f"unavailable ({exc})"
    lines = [line for line in out.splitlines() if line.strip()]
    return lines[-1] if lines else "unknown"


def nvcc_command(nvcc: str, arch: str, src: Path, exe: Path, include: str = str(SOURCES)) -> list[str]:
    # -I: the translated copy lives in a temporary folder and includes harness.cuh.
    return [nvcc, "-O3", f"-arch={arch}", "-std=c++17", "-I", include, "-o", str(exe), str(src)]


def build(nvcc: str, arch: str, src: Path, exe: Path) -> str | None:
    """None, or why the build failed."""
    try:
        proc = subprocess.run(nvcc_command(nvcc, arch, src, exe), capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if proc.returncode != 0:
        return (proc.stdout + proc.stderr).strip()[-3000:] or f"nvcc exited {proc.returncode}"
    return None


def run_binary(exe: Path, max_mib: int, reps: int, timeout: int) -> RunResult:
    res = RunResult()
    started = time.perf_counter()
    try:
        proc = subprocess.run([str(exe), str(max_mib), str(reps)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        res.error = f"timed out after {timeout} s"
        return res
    except OSError as exc:
        res.error = str(exc)
        return res
    res.wall_s = time.perf_counter() - started
    res.rc = proc.returncode
    for line in proc.stderr.splitlines():
        if line.startswith(NO_GPU_TEXT):
            res.no_gpu = line
        elif line.startswith("MISMATCH"):
            res.mismatches.append(line)
        elif " on " in line and " SMs" in line and res.gpu is None:
            res.gpu = line.split(" on ", 1)[1].split(";", 1)[0]
    for line in proc.stdout.splitlines():
        parts = line.strip().split(",")
        if len(parts) != 6 or parts[0] == "chain":
            continue
        try:
            res.rows[(parts[1], int(parts[2]))] = Row(float(parts[3]), float(parts[4]), float(parts[5]))
        except ValueError:
            continue
    if res.no_gpu is None and proc.returncode not in (0, 1):
        res.error = f"exit status {proc.returncode}: " + (proc.stderr.strip()[-2000:] or "(no output)")
    elif proc.returncode == 1 and not res.mismatches:
        res.error = "exit status 1: " + (proc.stderr.strip()[-2000:] or "(no output)")
    return res


def nvidia_smi() -> str | None:
    """The GPU, its driver and memory as nvidia-smi reports them, or None."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return None
    try:
        proc = subprocess.run([exe, "--query-gpu=name,driver_version,memory.total,clocks.max.memory",
                               "--format=csv,noheader"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else None


def bench_chain(name: str, args, work: Path, env: dict, can_build: bool) -> ChainResult:
    src = SOURCES / f"{name}.cu"
    res = ChainResult(name, int(name.removeprefix("chain")))
    original = src.read_bytes()
    if args.translations:
        saved = Path(args.translations) / f"{name}.cu"
        step(f"{name}: the translation in {saved}")
        rc, fused_text = (0, saved.read_bytes()) if saved.is_file() else (-1, b"")
        diag = saved.with_suffix(".diag")
        diagnostics = diag.read_text() if diag.is_file() else ""
        if rc:
            diagnostics = f"{saved} does not exist"
    else:
        step(f"{name}: translate --target cuda")
        try:
            rc, fused_text, diagnostics = translate(src, env)
        except subprocess.TimeoutExpired:
            rc, fused_text, diagnostics = -1, b"", "timed out"
    res.diagnostics = diagnostics.strip()
    if rc != 0 or not fused_text:
        res.translate_error = f"exit status {rc}" + (f": {res.diagnostics}" if res.diagnostics else "")
    else:
        res.fused = fused_text != original
        if res.fused:
            res.diff = "".join(difflib.unified_diff(
                original.decode(errors="replace").splitlines(keepends=True),
                fused_text.decode(errors="replace").splitlines(keepends=True),
                fromfile=f"bench/fusion/{name}.cu", tofile=f"{name}.cu --target cuda"))

    if args.save_translations:
        folder = Path(args.save_translations)
        folder.mkdir(parents=True, exist_ok=True)
        if rc == 0 and fused_text:
            (folder / f"{name}.cu").write_bytes(fused_text)
            (folder / f"{name}.diag").write_text(diagnostics)
        return res
    if not can_build:
        return res
    targets = {"original": src}
    if res.fused:
        copy = work / f"{name}.fused.cu"
        copy.write_bytes(fused_text)
        targets["fused"] = copy
    exes = {}
    for label, path in targets.items():
        exe = work / f"{name}.{label}"
        step(f"{name}: nvcc {label}")
        res.build[label] = build(args.nvcc, args.arch, path, exe)
        if res.build[label] is None:
            exes[label] = exe
    for label, exe in exes.items():
        step(f"{name}: run {label} (up to {args.max_mib} MiB per buffer, {args.reps} reps)")
        res.runs[label] = run_binary(exe, args.max_mib, args.reps, args.timeout)
        if res.runs[label].no_gpu:
            break               # the other binary would say the same
    return res


# ------------------------------------------------------------------ the report

def fmt_ms(row: Row | None) -> str:
    return "-" if row is None else f"{row.ms:.4f}"


def ratio(base: Row | None, row: Row | None) -> str:
    return "-" if base is None or row is None or row.ms <= 0 else f"{base.ms / row.ms:.2f}x"


def percent(row: Row | None, ref: Row | None) -> str:
    """How much longer (+) or shorter (-) row takes than ref."""
    return "-" if row is None or ref is None or ref.ms <= 0 else f"{(row.ms / ref.ms - 1) * 100:+.1f}%"


def bandwidth(row: Row | None, bytes_moved: float | None, peak: float) -> str:
    if row is None or bytes_moved is None or row.ms <= 0:
        return "-"
    gbps = bytes_moved / (row.ms * 1e-3) / 1e9
    return f"{gbps:,.0f} ({gbps / peak * 100:.0f}%)"


def chain_section(res: ChainResult, peak: float) -> list[str]:
    out = [f"## {res.name}: {res.kernels} kernels", ""]
    w = out.append
    if res.translate_error:
        w(f"- translation: **failed** ({res.translate_error})")
    elif res.fused:
        changed = sum(1 for line in res.diff.splitlines()
                      if line[:1] in "+-" and not line.startswith(("+++", "---")))
        w(f"- translation: **fused** ({changed} lines added or removed)")
    else:
        w("- translation: **not fused** (`--target cuda` left the file unchanged); auto-fused columns are empty")
    if res.diagnostics:
        w("- translator diagnostics:")
        w("")
        w("  ```")
        out += [f"  {line}" for line in res.diagnostics.splitlines()]
        w("  ```")
    for label, error in res.build.items():
        if error:
            w(f"- nvcc, {label}: **failed**")
            w("")
            w("  ```")
            out += [f"  {line}" for line in error.splitlines()[-30:]]
            w("  ```")
    for label, run in res.runs.items():
        if run.no_gpu:
            w(f"- run, {label}: **no GPU**: {run.no_gpu}")
        if run.error:
            w(f"- run, {label}: **failed**: {run.error}")
        for line in run.mismatches:
            w(f"- run, {label}: **{line}**")
        if run.rc is not None and not run.no_gpu:
            w(f"- run, {label}: exit status {run.rc}, {run.wall_s:.1f} s" + (f", {run.gpu}" if run.gpu else ""))
    w("")
    orig = res.runs.get("original")
    fused = res.runs.get("fused")
    if orig is None or not orig.rows:
        return out
    sizes = sorted({size for (_variant, size) in orig.rows})
    w("Median time of one run of the chain (ms), speed-up over unfused, and auto-fused against the hand-fused kernels "
      "(+: auto-fused takes longer).")
    w("")
    w("| MiB per buffer | unfused | auto-fused | hand_kept | hand_dropped | auto speed-up | hand_kept speed-up "
      "| hand_dropped speed-up | auto vs hand_kept | auto vs hand_dropped |")
    w("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        unfused = orig.rows.get(("chain", size))
        kept = orig.rows.get(("hand_kept", size))
        dropped = orig.rows.get(("hand_dropped", size))
        auto = fused.rows.get(("chain", size)) if fused else None
        w(f"| {size // MIB} | {fmt_ms(unfused)} | {fmt_ms(auto)} | {fmt_ms(kept)} | {fmt_ms(dropped)} "
          f"| {ratio(unfused, auto)} | {ratio(unfused, kept)} | {ratio(unfused, dropped)} "
          f"| {percent(auto, kept)} | {percent(auto, dropped)} |")
    w("")
    w(f"Achieved bandwidth, GB/s (share of the {peak:,.0f} GB/s peak), over each variant's least traffic "
      "(bytes per buffer times: " + ", ".join(
          f"{variant} {orig.rows[(variant, sizes[0])].bytes_moved / sizes[0]:.0f}"
          for variant in ("chain", "hand_kept", "hand_dropped") if (variant, sizes[0]) in orig.rows)
      + "; auto-fused counted as hand_kept, since it must still store every intermediate).")
    w("")
    w("| MiB per buffer | unfused | auto-fused | hand_kept | hand_dropped |")
    w("|---:|---:|---:|---:|---:|")
    for size in sizes:
        unfused = orig.rows.get(("chain", size))
        kept = orig.rows.get(("hand_kept", size))
        dropped = orig.rows.get(("hand_dropped", size))
        auto = fused.rows.get(("chain", size)) if fused else None
        w(f"| {size // MIB} | {bandwidth(unfused, unfused and unfused.bytes_moved, peak)} "
          f"| {bandwidth(auto, kept and kept.bytes_moved, peak)} | {bandwidth(kept, kept and kept.bytes_moved, peak)} "
          f"| {bandwidth(dropped, dropped and dropped.bytes_moved, peak)} |")
    if fused and fused.rows:
        # The hand-fused kernels are the same code in both binaries: how far apart their
        # times are is the noise of the measurement.
        spread = []
        for (variant, size), row in fused.rows.items():
            ref = orig.rows.get((variant, size))
            if variant != "chain" and ref is not None and ref.ms > 0:
                spread.append(abs(row.ms / ref.ms - 1) * 100)
        if spread:
            w("")
            w(f"Noise: the hand-fused kernels, identical in both binaries, differ between the two runs by "
              f"{max(spread):.1f}% at most (median {sorted(spread)[len(spread) // 2]:.1f}%).")
    if res.diff:
        w("")
        w("<details><summary>the fused translation (diff)</summary>")
        w("")
        w("```diff")
        out += res.diff.rstrip("\n").splitlines()
        w("```")
        w("")
        w("</details>")
    w("")
    return out


def render(results: list[ChainResult], info: dict, peak: float) -> str:
    out = ["# Kernel fusion benchmark", ""]
    w = out.append
    w(f"- command: `{info['command']}`")
    w(f"- date: {info['date']}")
    w(f"- commit: {info['git']['commit']}")
    m = info["machine"]
    w(f"- machine: {m['platform']}, {m['cpu_model'] or m['machine']}, {m['cpu_count']} CPUs, Python {m['python']}")
    gpu = info.get("nvidia_smi") or next((r.gpu for c in results for r in c.runs.values() if r.gpu), None)
    w(f"- GPU: {gpu or 'none found'}")
    if info.get("translations"):
        w(f"- translations: read from {info['translations']} (made beforehand with --save-translations)")
    w(f"- nvcc: {info['nvcc_version']}; `{info['nvcc_command']}`")
    w(f"- sizes: 1 MiB to {info['max_mib']} MiB per buffer (powers of 4); each point the median of "
      f"{info['reps']} runs, or of as many as take 20 ms when they are shorter (at most 4000), after warm-up "
      "runs; timed with CUDA events between back-to-back runs on one stream")
    w(f"- peak bandwidth: {peak:,.0f} GB/s (H200, HBM3e)")
    w("- reading it: at 1 and 4 MiB a kernel takes a few microseconds, about what a launch costs on the host "
      "(about 4.5 us per back-to-back launch, as measured on an H200), so there the speed-ups "
      "mostly count launches saved; from 16 MiB on they count memory traffic saved")
    no_gpu = next((r.no_gpu for c in results for r in c.runs.values() if r.no_gpu), None)
    if no_gpu:
        w("")
        w(f"**No GPU is present: {no_gpu}.** The chain sources were translated and compiled; "
          "nothing was run, so there are no timings. Run this on a machine with an NVIDIA GPU.")
    elif info.get("nvcc_missing"):
        w("")
        w(f"**nvcc was not found ({info['nvcc']}).** The chain sources were translated; nothing was compiled or run.")
    w("")
    w("| chain | translation | builds | runs | outputs match run_chain's |")
    w("|---|---|---|---|---|")
    for res in results:
        translation = "failed" if res.translate_error else "fused" if res.fused else "not fused"
        builds = ", ".join(f"{k} {'ok' if v is None else 'FAILED'}" for k, v in res.build.items()) or "-"
        runs = ", ".join(f"{k} " + ("no GPU" if r.no_gpu else "FAILED" if r.error else "ok")
                         for k, r in res.runs.items()) or "-"
        ran = [r for r in res.runs.values() if r.rows]
        match = "-" if not ran else "no" if any(r.mismatches for r in ran) else "yes"
        w(f"| {res.name} | {translation} | {builds} | {runs} | {match} |")
    w("")
    for res in results:
        out += chain_section(res, peak)
    return "\n".join(out).rstrip("\n") + "\n"


# ------------------------------------------------------------------ main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-mib", type=int, default=1024,
                        help="largest size per buffer in MiB (sizes are 1, 4, 16, ... up to it; default 1024)")
    parser.add_argument("--reps", type=int, default=30, help="timed runs per size and variant at least, median taken (default 30)")
    parser.add_argument("--chains", default=",".join(CHAINS), help=f"which chain sources (default {','.join(CHAINS)})")
    parser.add_argument("--nvcc", default=os.environ.get("NVCC") or shutil.which("nvcc") or "nvcc",
                        help="the nvcc to use (default: $NVCC, else nvcc on PATH)")
    parser.add_argument("--arch", default="sm_90", help="nvcc -arch (default sm_90: H100/H200)")
    parser.add_argument("--peak-gbps", type=float, default=PEAK_GBPS,
                        help=f"peak memory bandwidth in GB/s for the share column (default {PEAK_GBPS:,.0f}: H200)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds one binary may run (default 900)")
    parser.add_argument("--out", help="also write the markdown report to this file")
    parser.add_argument("--keep", help="keep the translated sources and the binaries in this folder")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--save-translations", metavar="DIR",
                       help="only translate: write DIR/<chain>.cu and .diag, build and run nothing")
    where.add_argument("--translations", metavar="DIR",
                       help="use the translations in DIR (from --save-translations) instead of the translator")
    args = parser.parse_args(argv)
    chains = [c.strip() for c in args.chains.split(",") if c.strip()]
    unknown = [c for c in chains if not (SOURCES / f"{c}.cu").is_file()]
    if unknown or args.max_mib < 1 or args.reps < 1:
        parser.error(f"no source bench/fusion/{unknown[0]}.cu" if unknown else "--max-mib and --reps must be >= 1")

    nvcc_found = shutil.which(args.nvcc) is not None
    info = {"command": command_line(), "date": now(), "git": git_info(), "machine": machine_info(),
            "nvidia_smi": nvidia_smi(), "nvcc": args.nvcc, "nvcc_missing": not nvcc_found,
            "nvcc_version": nvcc_version(args.nvcc) if nvcc_found else "not found",
            "nvcc_command": shlex.join(nvcc_command("nvcc", args.arch, Path("SRC"), Path("EXE"), "bench/fusion")),
            "max_mib": args.max_mib, "reps": args.reps, "translations": args.translations}

    results = []
    with tempfile.TemporaryDirectory(prefix="cu2hip-fusion-") as tmp:
        work = Path(args.keep).resolve() if args.keep else Path(tmp) / "work"
        work.mkdir(parents=True, exist_ok=True)
        env = child_env(Path(tmp))       # the translator's cache in tmp, not the user's
        for name in chains:
            results.append(bench_chain(name, args, work, env, nvcc_found))

    if args.save_translations:
        for res in results:
            state = "failed: " + res.translate_error if res.translate_error else "fused" if res.fused else "not fused"
            print(f"{res.name}: {state}" + ("" if res.translate_error else
                                            f" -> {Path(args.save_translations) / (res.name + '.cu')}"))
        return 1 if any(res.translate_error for res in results) else 0

    report = render(results, info, args.peak_gbps)
    print(report, end="")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(report)
        step(f"wrote {args.out}")

    no_gpu = any(r.no_gpu for c in results for r in c.runs.values())
    failed = any(c.translate_error or any(c.build.values())
                 or any(r.error or r.mismatches for r in c.runs.values()) for c in results)
    if failed or not nvcc_found:
        return 1
    return 3 if no_gpu else 0


if __name__ == "__main__":
    sys.exit(main())
