#!/usr/bin/env python3
"""Translation-cache benchmark for cu2hip (stdlib only): how much faster a second run
over an unchanged tree is.

    python bench/cache.py [--lines 100000] [--runs 3] [--out bench/results/cache.json]

The requirement: with the cache, a second run over an unchanged tree is at least 10x
faster than the first. What it does (bench/README.md has the long form):

1. builds a tree of at least --lines lines in a temporary folder, as bench/throughput.py
   does (bench/common.py: copies of corpus/);
2. every process runs with CU2HIP_CACHE_DIR in a fresh temporary folder (the user's
   cache is neither used nor changed) and bytecode caching on (PYTHONPYCACHEPREFIX in
   the temporary folder, compiled by a warm-up run that leaves nothing in the cache);
3. `python -m translator translate TREE -o OUT -q`: once with an empty cache (cold),
   then the same command again, best of --runs (warm; OUT already holds the output, so
   the warm run writes nothing); the speed-up is cold / best warm, against 10x;
4. the same for `python -m translator translate TREE --examine -q`, with a cache of its own;
5. checks that the warm runs rewrote no file of OUT, that a warm run into an empty
   folder writes a tree byte-identical to the cold run's, that its summary line counts
   every file as cached, and that the warm runs added nothing to the cache; reports the
   cache folder's size, the start-up floor (`python -m translator --version`) and a
   cProfile of one warm run in this process.

It prints a report, writes it next to the JSON (same name, .txt) and writes the JSON
with the date, machine, git commit (and whether the working tree was dirty), the
command line and every figure.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import pstats
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (tree_lines, write_results, CORPUS, REPO, Contention, build_tree, child_env, command_line, corpus_files,  # noqa: E402
                    corpus_info, folder_size, git_info, header_lines, list_tree, loadavg, machine_info, now,
                    others_cores, run_measured, shown, tree_digests)

TARGET_SPEEDUP = 10.0      # warm run over an unchanged tree vs the first (cold) run


def mtimes(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}


def timed(cmd: list[str], env: dict, names: dict[str, str]) -> dict:
    """One whole-process run: wall, cpu, peak RSS, exit status and the last stderr line."""
    with tempfile.TemporaryFile() as err:
        run = run_measured(cmd, env, stderr=err)
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").rstrip().splitlines()
    return {"command": shown(cmd, names), "wall_s": round(run["wall_s"], 4),
            "cpu_s": round(run["user_s"] + run["sys_s"], 4), "maxrss_mib": round(run["maxrss_mib"], 1),
            "rc": run["rc"], "stderr_tail": lines[-1] if lines else None,
            "others_cores": others_cores(run["others_cpu_s"], run["wall_s"])}


def cold_and_warm(cmd: list[str], env: dict, names: dict[str, str], runs: int, cache_dir: Path,
                  after_cold=None) -> dict:
    """The command with an empty cache in `cache_dir`, then `runs` times with the cache it
    filled; `after_cold()`, if given, is called between the two (not timed)."""
    env = {**env, "CU2HIP_CACHE_DIR": str(cache_dir)}
    cold = timed(cmd, env, names)
    filled = folder_size(cache_dir)
    if after_cold is not None:
        after_cold()
    warm = [timed(cmd, env, names) for _ in range(runs)]
    after_warm = folder_size(cache_dir)
    best = min(warm, key=lambda r: r["wall_s"])
    speedup = cold["wall_s"] / best["wall_s"]
    ran_ok = cold["rc"] == 0 and all(r["rc"] == 0 for r in warm)
    return {"command": cold["command"], "cold": cold, "warm_runs": warm,
            "warm_best_s": best["wall_s"], "warm_median_s": round(statistics.median(r["wall_s"] for r in warm), 4),
            "speedup": round(speedup, 2), "target": TARGET_SPEEDUP, "ran_ok": ran_ok,
            "pass": ran_ok and speedup >= TARGET_SPEEDUP,
            "cache_after_cold": filled, "cache_after_warm": after_warm,
            "warm_added_entries": after_warm["files"] - filled["files"]}


def summary_cached(line: str | None) -> int | None:
    """N of the summary line's `, N cached;` (0 when the line has no such part)."""
    if not line or not line.startswith("cu2hip: "):
        return None
    m = re.search(r", (\d+) cached;", line)
    return int(m.group(1)) if m else 0


def profile_warm(tree_dir: Path, out_dir: Path, cache_dir: Path, top: int = 15) -> tuple[dict, str, float]:
    """cProfile of one warm run (`cli.main`, -o into the cold run's folder) in this process,
    after one unprofiled warm run (imports, tables and pass discovery done before)."""
    from translator import cli
    saved = os.environ.get("CU2HIP_CACHE_DIR")
    os.environ["CU2HIP_CACHE_DIR"] = str(cache_dir)
    profiler = cProfile.Profile()
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            cli.main(["translate", str(tree_dir), "-o", str(out_dir), "-q"])
            started = time.perf_counter()
            profiler.enable()
            cli.main(["translate", str(tree_dir), "-o", str(out_dir), "-q"])
            profiler.disable()
            seconds = time.perf_counter() - started
    finally:
        if saved is None:
            os.environ.pop("CU2HIP_CACHE_DIR", None)
        else:
            os.environ["CU2HIP_CACHE_DIR"] = saved
    texts, rows = [], {}
    for key in ("cumulative", "tottime"):
        stream = io.StringIO()
        stats = pstats.Stats(profiler, stream=stream).sort_stats(key)
        stats.print_stats(top)
        text = stream.getvalue().replace(str(REPO) + os.sep, "")
        texts.append(f"--- by {key} time\n" + text[text.find("   ncalls"):].rstrip())
        rows[key] = []
        for func in stats.fcn_list[:top]:
            _, nc, tt, ct, _ = stats.stats[func]
            filename, line, name = func
            rows[key].append({"function": f"{filename.replace(str(REPO) + os.sep, '')}:{line}({name})",
                              "ncalls": nc, "tottime_s": round(tt, 4), "cumtime_s": round(ct, 4)})
    return rows, "\n\n".join(texts), seconds


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def contended(cores: float | None) -> str:
    """A note when other processes took a noticeable share of the machine meanwhile."""
    return "" if cores is None or cores < 0.1 else f"  [other processes: {cores:.2f} cores meanwhile]"


def render(res: dict, profile_text: str) -> str:
    out = header_lines(res)
    w = out.append
    out += tree_lines(res)
    w("")
    w("== Targets")
    for key in ("output", "examine"):
        r = res[key]
        w(f"  {verdict(r['pass'])}  warm run {r['speedup']:.1f}x faster than cold (target >= {r['target']:.0f}x): "
          f"{r['command']}" + ("" if r["ran_ok"] else " -- but a run failed"))
    v = res["verification"]
    w(f"  {verdict(v['identical'])}  the warm run's output tree is byte-identical to the cold run's "
      f"({v['files_compared']:,} files)")
    w("")
    for key, title in (("output", "translate TREE -o OUT -q (the same OUT every time)"),
                       ("examine", "translate TREE --examine -q")):
        r = res[key]
        w(f"== {title}")
        w(f"  cold (empty cache)   {r['cold']['wall_s']:7.3f} s wall  {r['cold']['cpu_s']:7.3f} s cpu  "
          f"rss {r['cold']['maxrss_mib']:.0f} MiB  rc {r['cold']['rc']}" + contended(r["cold"]["others_cores"]))
        for i, run in enumerate(r["warm_runs"], 1):
            w(f"  warm run {i}           {run['wall_s']:7.3f} s wall  {run['cpu_s']:7.3f} s cpu  "
              f"rss {run['maxrss_mib']:.0f} MiB  rc {run['rc']}" + contended(run["others_cores"]))
        w(f"  speed-up: {r['speedup']:.1f}x (cold / best warm {r['warm_best_s']:.3f} s; median warm "
          f"{r['warm_median_s']:.3f} s)")
        ca = r["cache_after_cold"]
        w(f"  cache folder after the cold run: {ca['files']:,} entries, {ca['bytes'] / 1e6:.2f} MB "
          f"({ca['disk_bytes'] / 1e6:.2f} MB on disk); the warm runs added {r['warm_added_entries']} entries")
        for run in [r["cold"], *r["warm_runs"]]:
            if run["rc"] != 0:
                w(f"    FAILED (exit {run['rc']}): {run['stderr_tail']}")
        w("")
    w("== Checks")
    w(f"  files of OUT rewritten by the warm runs: {v['rewritten_by_warm_runs']} "
      f"(changed content: {v['changed_by_warm_runs']})")
    w(f"  a warm run into an empty folder: {v['files_compared']:,} files, {v['differing']} differ, "
      f"{v['missing']} missing, {v['extra']} extra; its summary line: {v['summary_line']}")
    w(f"  cached files by that summary line: {v['summary_cached']} of {res['tree']['files']:,}")
    w(f"  tool fingerprint unchanged during the run (translator/ not edited meanwhile): {v['fingerprint_stable']}")
    w("")
    fl = res["startup_floor"]
    w(f"== Start-up floor: {fl['command']}: median {fl['median_s'] * 1000:.1f} ms of {fl['runs']} runs")
    w("")
    w(f"== cProfile of one warm run in this process (cli.main, -o, after an unprofiled warm run): "
      f"{res['profile_s']:.3f} s with the profiler, top 15")
    w(profile_text)
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000, help="lines in the generated tree (at least)")
    parser.add_argument("--runs", type=int, default=3, help="warm runs, best taken (default 3)")
    parser.add_argument("--out", default=str(REPO / "bench/results/cache.json"),
                        help="JSON to write; the report goes next to it as .txt")
    args = parser.parse_args(argv)

    def step(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    contention = Contention()
    res: dict = {"benchmark": "bench/cache.py", "title": "cu2hip cache benchmark", "date": now(),
                 "command": command_line(), "cwd": os.getcwd(), "machine": machine_info(), "git": git_info(),
                 "loadavg_start": loadavg()}
    files = corpus_files()
    res["corpus"] = corpus_info(files)
    from translator.cache import fingerprint
    fingerprint_before = fingerprint()
    with tempfile.TemporaryDirectory(prefix="cu2hip-bench-cache-") as tmp_name:
        tmp = Path(tmp_name)
        env = child_env(tmp)
        res["environment"] = ("every process runs with CU2HIP_CACHE_DIR in a fresh temporary folder and bytecode "
                              "caching on (PYTHONPYCACHEPREFIX in a temporary folder, compiled by a warm-up run); "
                              f"-j is the CLI's default, the CPU count ({os.cpu_count()})")
        tree_dir, out_dir = tmp / "tree", tmp / "out"
        names = {str(tree_dir): "TREE", str(out_dir): "OUT"}
        step(f"building a tree of at least {args.lines:,} lines in {tree_dir}")
        res["tree"] = build_tree(tree_dir, args.lines, files)
        python_m = [sys.executable, "-m", "translator"]

        step("warm-up: compile the translator's bytecode (one file, --no-cache)")
        small = min((p for p in list_tree(CORPUS) if p.suffix == ".cu"), key=lambda p: p.stat().st_size)
        subprocess.run([*python_m, "translate", str(small), "--stdout", "--no-cache"], cwd=REPO, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)

        step(f"translate TREE -o OUT -q: cold, then warm x{args.runs}")
        cmd = [*python_m, "translate", str(tree_dir), "-o", str(out_dir), "-q"]
        cache_dir = tmp / "cache-output"
        snapshot: dict = {}

        def take_snapshot() -> None:      # OUT as the cold run left it
            snapshot.update(digests=tree_digests(out_dir), stamps=mtimes(out_dir))
        res["output"] = cold_and_warm(cmd, env, names, args.runs, cache_dir, take_snapshot)
        digests, stamps = snapshot["digests"], snapshot["stamps"]
        now_digests, now_stamps = tree_digests(out_dir), mtimes(out_dir)

        step("verification: a warm run into an empty folder (not timed)")
        out2 = tmp / "out2"
        check = [*python_m, "translate", str(tree_dir), "-o", str(out2)]
        verify = timed(check, {**env, "CU2HIP_CACHE_DIR": str(cache_dir)}, {**names, str(out2): "OUT2"})
        second = tree_digests(out2)
        differing = sorted(k for k in digests.keys() & second.keys() if digests[k] != second[k])
        missing, extra = sorted(digests.keys() - second.keys()), sorted(second.keys() - digests.keys())
        res["verification"] = {
            "files_compared": len(digests), "differing": len(differing), "missing": len(missing),
            "extra": len(extra), "examples": (differing + missing + extra)[:10],
            "identical": verify["rc"] == 0 and not (differing or missing or extra),
            "rewritten_by_warm_runs": sum(now_stamps.get(k) != v for k, v in stamps.items()),
            "changed_by_warm_runs": sum(now_digests.get(k) != v for k, v in digests.items()),
            "summary_line": verify["stderr_tail"], "summary_cached": summary_cached(verify["stderr_tail"]),
            "command": verify["command"]}

        step(f"translate TREE --examine -q: cold, then warm x{args.runs}")
        res["examine"] = cold_and_warm([*python_m, "translate", str(tree_dir), "--examine", "-q"], env, names,
                                       args.runs, tmp / "cache-examine")

        step("start-up floor: python -m translator --version")
        floor = [run_measured([*python_m, "--version"], env)["wall_s"] for _ in range(4)][1:]
        res["startup_floor"] = {"command": shown([*python_m, "--version"]), "runs": len(floor),
                                "median_s": round(statistics.median(floor), 4)}

        step("cProfile of one warm run")
        res["profile"], profile_text, res["profile_s"] = profile_warm(tree_dir, out_dir, cache_dir)
        res["profile_s"] = round(res["profile_s"], 4)
    fingerprint.cache_clear()
    res["verification"]["fingerprint_stable"] = fingerprint() == fingerprint_before
    res["loadavg_end"] = loadavg()
    res["contention"] = contention.figures()
    res["all_pass"] = res["output"]["pass"] and res["examine"]["pass"] and res["verification"]["identical"]

    write_results(Path(args.out), res, render(res, profile_text), step)
    return 0


if __name__ == "__main__":
    sys.exit(main())
