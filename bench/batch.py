"""Repositories per minute through `cu2hip batch` on the embedded LocalCluster, for several
worker counts.

    python3 bench/batch.py [--repos 32] [--workers 1,4,16] [--out bench/results/batch.json]

The repositories are copies of the corpus's folders (corpus/fusion, corpus/warp,
corpus/projects/cmake_stats ..., taken in turn, each copy a repository of its own). Every
batch runs with translate's `--no-cache` and a new cache folder, so each measures the
translation itself, not the cache; the outputs of each worker count are checked to be the
same bytes as those of the first. Needs cu2hip[batch] (Dask's distributed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402

FOLDERS = ["fusion", "warp", "kernels", "memory", "runtime", "libraries", "numerics", "preprocessor",
           "projects/cmake_stats", "projects/make_histogram", "graphs", "textures", "driver"]


def make_repositories(root: Path, count: int) -> list[Path]:
    repos = []
    for i in range(count):
        source = common.CORPUS / FOLDERS[i % len(FOLDERS)]
        dest = root / f"repo{i:03d}-{source.name}"
        shutil.copytree(source, dest)
        repos.append(dest)
    return repos


def run_batch(manifest: Path, output: Path, workers: int, tmp: Path) -> dict:
    env = common.child_env(tmp)
    env["CU2HIP_CACHE_DIR"] = str(tmp / f"cache-{workers}")
    cmd = [sys.executable, "-m", "translator", "batch", str(manifest), "-o", str(output), "--workers", str(workers),
           "-q", "--", "--no-cache"]
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=common.REPO, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{common.shown(cmd)} exited {done.returncode}:\n{done.stderr[-4000:]}")
    summary = json.loads((output / "cu2hip-batch.json").read_text())
    return {"workers": workers, "wall_s": round(wall, 2), "repositories": summary["totals"]["repositories"],
            "files": summary["totals"]["files"], "failed": summary["totals"]["failed"],
            "repositories_per_minute": round(60 * summary["totals"]["repositories"] / wall, 1),
            "command": common.shown(cmd)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repos", type=int, default=32)
    ap.add_argument("--workers", default="1,4,16")
    ap.add_argument("--out", type=Path, default=common.REPO / "bench" / "results" / "batch.json")
    args = ap.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    res = {"title": "cu2hip batch benchmark", "command": common.command_line(), "date": common.now(),
           "machine": common.machine_info(), "git": common.git_info(), "loadavg_start": common.loadavg(),
           "runs": []}
    with tempfile.TemporaryDirectory(prefix="cu2hip-bench-batch-") as tmp_name:
        tmp = Path(tmp_name)
        repos = make_repositories(tmp / "repos", args.repos)
        manifest = tmp / "repos.txt"
        manifest.write_text("".join(f"{r}\n" for r in repos))
        lines = sum(common.count_lines(p.read_bytes()) for r in repos for p in common.list_tree(r))
        res["repositories"] = {"count": len(repos), "files": sum(len(common.list_tree(r)) for r in repos),
                               "lines": lines, "folders": FOLDERS}
        first = None
        for workers in counts:
            output = tmp / f"out-{workers}"
            run = run_batch(manifest, output, workers, tmp)
            digests = {r.name: common.tree_digests(output / r.name) for r in repos}
            run["same_output_as_first"] = first is None or digests == first
            first = first or digests
            res["runs"].append(run)
            print(f"{workers:>3} workers: {run['wall_s']:7.1f} s, {run['repositories_per_minute']:6.1f} "
                  f"repositories/minute", file=sys.stderr)
    res["loadavg_end"] = common.loadavg()
    m = res["machine"]
    report = [f"$ {res['command']}", f"{res['title']}, {res['date']}",
              f"machine: {m['platform']}, {m['cpu_model'] or m['machine']}, {m['cpu_count']} CPUs, Python {m['python']}",
              f"commit:  {res['git']['commit']}",
              f"repositories: {res['repositories']['count']} copies of corpus folders, "
              f"{res['repositories']['files']} files, {res['repositories']['lines']:,} lines; translate --no-cache",
              "", "| workers | wall s | repositories/minute | same output as the first |", "| ---: | ---: | ---: | --- |"]
    for run in res["runs"]:
        report.append(f"| {run['workers']} | {run['wall_s']} | {run['repositories_per_minute']} | "
                      f"{'yes' if run['same_output_as_first'] else 'NO'} |")
    common.write_results(args.out, res, "\n".join(report) + "\n", lambda s: print(s, file=sys.stderr))
    return 0 if all(r["same_output_as_first"] for r in res["runs"]) else 1


if __name__ == "__main__":
    sys.exit(main())
