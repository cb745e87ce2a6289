#!/usr/bin/env python3
"""The error of `cu2hip report`'s static register estimate against hipcc (stdlib only).

    python bench/registers.py [--offload-arch gfx90a] [--jobs N] [--out bench/results/register-estimate.json]

What it does (bench/README.md has the long form):

1. runs `python -m translator report PROGRAMS... --format json` over every program of
   corpus/manifest.toml, as a user would (the report translates them, compiles each
   translation with hipcc's resource-usage remarks, with the optimizing passes and
   without them, and counts each kernel's estimate: translator.ir.registers);
2. for every kernel hipcc gave figures for, compares the estimate for the translation's
   bounds with hipcc's VGPRs for the translation, and the predicted spill with hipcc's
   VGPR spills; and the same for the translation without the optimizing passes (no
   bounds: the estimate for HIP's default of 1024 threads), where the spills are;
3. prints a table and a summary (mean absolute error, median, max, the fraction within
   25%, the spill confusion matrices) and the calibration of the estimate's one
   constant, `BASE`: the median of hipcc's VGPRs less the count without `BASE`, over the
   kernels hipcc did not cap;
4. writes the report next to the JSON (same name, .txt), the command at the top.

Needs hipcc (`apt-get install hipcc libamdhip64-dev rocm-device-libs`); kernels whose
programs need headers that are not installed have no figures and are listed apart.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (REPO, Contention, child_env, command_line, git_info, header_lines, loadavg,  # noqa: E402
                    machine_info, now)

from translator import toolchain  # noqa: E402
from translator.corpus import load_manifest  # noqa: E402
from translator.ir.registers import BASE, vgpr_cap  # noqa: E402

WITHIN = 0.25          # the fraction of hipcc's figure an estimate may be off and count as close


_LOCAL_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.M)


def programs() -> dict[tuple[str, ...], list[str]]:
    """The manifest's programs' sources and the local headers they include (relative to
    the repository), by the translate options each program names (`--roc` ...). The
    headers are named too: a file given alone is translated without them, and its
    translation would not compile."""
    out: dict[tuple[str, ...], list[str]] = {}
    for program in load_manifest(REPO):
        files = out.setdefault(program.options, [])
        pending = list(program.sources)
        while pending:
            path = pending.pop(0)
            if path in files:
                continue
            files.append(path)
            for name in _LOCAL_INCLUDE.findall((REPO / path).read_bytes()):
                header = (REPO / path).parent / name.decode()
                if header.is_file():
                    pending.append(header.resolve().relative_to(REPO).as_posix())
    return out


def run_reports(groups: dict[tuple[str, ...], list[str]], arch: str, jobs: int, env: dict) -> tuple[dict, list[str]]:
    """One report per set of options; their kernels and missing figures together, and
    the commands as the report prints them."""
    doc: dict = {"kernels": [], "missing": []}
    shown = []
    for options, paths in sorted(groups.items()):
        cmd = [sys.executable, "-m", "translator", "report", *paths, "--format", "json", "--offload-arch", arch,
               "-j", str(jobs), *options]
        done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"the report failed ({done.returncode}): {done.stderr[-2000:]}")
        found = json.loads(done.stdout)
        doc["kernels"] += found["kernels"]
        doc["missing"] += found["missing"]
        shown.append(f"python -m translator report <{len(paths)} sources and headers> --format json --offload-arch {arch} "
                     f"-j {jobs}" + "".join(f" {o}" for o in options))
    return doc, shown


def compare(kernels: list[dict]) -> dict:
    """Each kernel's estimate against hipcc's figures, with and without the passes."""
    with_rows, without_rows, unknown, no_figures = [], [], [], []
    for k in kernels:
        e = k.get("estimate") or {}
        where = f"{k['file']}:{k['line']}"
        if e.get("demand") is None:
            unknown.append({"where": where, "kernel": k["kernel"], "reason": e.get("reason", "")})
            continue
        if k.get("vgprs") is None:
            no_figures.append({"where": where, "kernel": k["kernel"]})
            continue
        with_rows.append(_row(k, where, e["demand"], e["max_threads"], k["vgprs"], k["vgpr_spills"], e["cap"]))
        before = k.get("without")
        if before and before.get("vgprs") is not None:
            cap = vgpr_cap(None)
            without_rows.append(_row(k, where, e["demand"], 1024, before["vgprs"], before["vgpr_spills"], cap))
    return {"with": with_rows, "without": without_rows, "no_estimate": unknown, "no_figures": no_figures}


def _row(k: dict, where: str, demand: int, threads: int, vgprs: int, spills: int, cap: int) -> dict:
    guess = min(demand, cap)
    return {"where": where, "kernel": k["kernel"], "bounds": k["bounds"], "max_threads": threads, "cap": cap,
            "demand": demand, "estimate": guess, "spill_predicted": demand > cap, "hipcc_vgprs": vgprs,
            "hipcc_spills": spills, "error": guess - vgprs, "relative": (guess - vgprs) / vgprs if vgprs else None}


def summary(rows: list[dict]) -> dict:
    if not rows:
        return {"kernels": 0}
    errors = [abs(r["error"]) for r in rows]
    close = sum(abs(r["error"]) <= WITHIN * r["hipcc_vgprs"] for r in rows)
    matrix = {"true_positive": 0, "false_positive": 0, "false_negative": 0, "true_negative": 0}
    for r in rows:
        spilled = r["hipcc_spills"] > 0
        key = ("true_" if r["spill_predicted"] == spilled else "false_") + \
            ("positive" if r["spill_predicted"] else "negative")
        matrix[key] += 1
    return {"kernels": len(rows), "mean_abs_error": round(statistics.fmean(errors), 2),
            "median_abs_error": statistics.median(errors), "max_abs_error": max(errors),
            "worst": max(rows, key=lambda r: abs(r["error"]))["kernel"],
            "mean_signed_error": round(statistics.fmean(r["error"] for r in rows), 2),
            "mean_abs_relative_error": round(statistics.fmean(abs(r["relative"]) for r in rows), 3),
            "within_25_percent": close, "fraction_within_25_percent": round(close / len(rows), 3),
            "spill_confusion": matrix}


def calibration(rows: list[dict]) -> dict:
    """What `BASE` should be: the median of hipcc's VGPRs less the count without it, over
    the kernels whose hipcc figure is under the cap (a capped figure says nothing of
    the demand)."""
    gaps = [r["hipcc_vgprs"] - (r["demand"] - BASE) for r in rows if r["hipcc_vgprs"] < r["cap"]]
    if not gaps:
        return {"kernels": 0}
    return {"kernels": len(gaps), "base_in_use": BASE, "median_gap": statistics.median(gaps),
            "mean_gap": round(statistics.fmean(gaps), 2), "gaps": sorted(gaps)}


def report(res: dict) -> str:
    out = header_lines(res)
    w = out.append
    w(f"reports ({res['programs']} programs of corpus/manifest.toml, {res['report_s']:.1f} s): "
      + "; ".join(res["report_commands"]))
    w(f"hipcc: {res['hipcc']}; target {res['offload_arch']}; the estimate's constant BASE = {BASE}")
    w("")
    for variant, title in (("with", "with the translation's bounds (the optimizing passes on)"),
                           ("without", "without the optimizing passes (no bounds: HIP's default of 1024 threads)")):
        rows = res["comparison"][variant]
        w(f"== {title}: {len(rows)} kernels")
        w(f"{'kernel':<44} {'bound':>5} {'cap':>4} {'demand':>6} {'est':>4} {'hipcc':>5} {'err':>5} "
          f"{'spill est/hipcc':>16}")
        for r in rows:
            name = f"{r['where'].rsplit('/', 1)[-1]} {r['kernel']}"
            w(f"{name[:44]:<44} {r['max_threads']:>5} {r['cap']:>4} {r['demand']:>6} {r['estimate']:>4} "
              f"{r['hipcc_vgprs']:>5} {r['error']:>+5} {('yes' if r['spill_predicted'] else 'no'):>8}/"
              f"{r['hipcc_spills']:<7}")
        s = res["summary"][variant]
        if s["kernels"]:
            m = s["spill_confusion"]
            w(f"mean absolute error {s['mean_abs_error']} VGPRs (signed {s['mean_signed_error']:+}), median "
              f"{s['median_abs_error']}, max {s['max_abs_error']} ({s['worst']}); mean relative "
              f"{s['mean_abs_relative_error']:.0%}; within 25% of hipcc: {s['within_25_percent']} of "
              f"{s['kernels']} ({s['fraction_within_25_percent']:.0%})")
            w(f"spills (predicted x hipcc): predicted and spilled {m['true_positive']}, predicted and not "
              f"{m['false_positive']}, not predicted and spilled {m['false_negative']}, neither "
              f"{m['true_negative']}")
        w("")
    c = res["calibration"]
    if c["kernels"]:
        w(f"== calibration of BASE (in use: {c['base_in_use']}): over {c['kernels']} kernels under their cap, "
          f"hipcc's VGPRs less the count without BASE: median {c['median_gap']}, mean {c['mean_gap']}")
        w(f"gaps: {c['gaps']}")
        w("")
    if res["comparison"]["no_figures"]:
        w(f"no hipcc figures for {len(res['comparison']['no_figures'])} kernels: "
          + ", ".join(f"{r['kernel']} ({r['where']})" for r in res["comparison"]["no_figures"]))
        w("why, as the report says it:")
        out.extend(f"  {m}" for m in res["missing"] if "with the optimizing passes" in m)
    if res["comparison"]["no_estimate"]:
        w("no estimate: " + "; ".join(f"{r['kernel']} ({r['where']}): {r['reason']}"
                                      for r in res["comparison"]["no_estimate"]))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--offload-arch", default="gfx90a", help="the AMD target (default gfx90a)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="the report's -j")
    parser.add_argument("--out", default=str(REPO / "bench/results/register-estimate.json"),
                        help="JSON to write; the report goes next to it as .txt")
    args = parser.parse_args(argv)
    if toolchain.hipcc() is None:
        raise SystemExit("hipcc is not installed: nothing to compare with (apt-get install hipcc "
                         "libamdhip64-dev rocm-device-libs)")
    contention = Contention()
    res: dict = {"benchmark": "bench/registers.py", "title": "cu2hip register estimate against hipcc",
                 "date": now(), "command": command_line(), "cwd": os.getcwd(), "machine": machine_info(),
                 "git": git_info(), "loadavg_start": loadavg(), "offload_arch": args.offload_arch,
                 "hipcc": f"{toolchain.hipcc()} (HIP {'.'.join(map(str, toolchain.installed_hip_version() or ()))})",
                 "base": BASE}
    groups = programs()
    res["programs"] = len(load_manifest(REPO))
    with tempfile.TemporaryDirectory(prefix="cu2hip-bench-registers-") as tmp:
        print(f"[{time.strftime('%H:%M:%S')}] reports over {res['programs']} programs", file=sys.stderr, flush=True)
        started = time.perf_counter()
        doc, shown = run_reports(groups, args.offload_arch, args.jobs, child_env(Path(tmp)))
        res["report_s"] = round(time.perf_counter() - started, 1)
    res["report_commands"] = shown
    res["missing"] = doc["missing"]
    res["comparison"] = compare(doc["kernels"])
    res["summary"] = {v: summary(res["comparison"][v]) for v in ("with", "without")}
    res["calibration"] = calibration(res["comparison"]["with"])
    res["loadavg_end"] = loadavg()
    res["contention"] = contention.figures()
    text = report(res)
    out = Path(args.out)
    print(text, end="")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2) + "\n")
    out.with_suffix(".txt").write_text(text)
    print(f"wrote {out} and {out.with_suffix('.txt')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
