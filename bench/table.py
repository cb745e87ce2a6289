#!/usr/bin/env python3
"""Issue 23's table in one command: the CLI over one tree, as a user runs it, every row.

    python3 bench/table.py                                  # the generated tree, about 1 minute on 16 cores
    python3 bench/table.py --tree /path/to/cuda/project     # a real tree instead
    python3 bench/table.py --hipify-perl /usr/bin/hipify-perl   # with hipify-perl side by side

Rows (each the best wall time of --repeat runs, every run with `--no-cache -q -o` into an
empty folder unless the row says otherwise; CPU time is printed next to it):

  one core            `taskset -c CPU ... -j 1` (hipify-perl: one process per file, one after
                      another, on the same core; every ratio is hipify-perl's time over cu2hip's)
  --only hipify -j 1  the renaming pass alone, one process
  -j 1/2/4/8/16       the whole run with N workers (counts above the usable CPUs are left
                      out); scaling: the -j 1 time over the largest -j's
  -j N vs hipify-perl hipify-perl in N processes at a time, one file each
  peak memory         the peak RSS of the -j 1 process (hipify-perl: its largest process)
  cache, first run    -j N with the cache on and empty (a new CU2HIP_CACHE_DIR): its time
                      over the uncached -j N run
  second run          the same command again over the unchanged tree (the run's record replays)
  one file, cached    `translate FILE --stdout` with the cache filled, median of --small-runs
                      (hipify-perl: the same file, median); FILE: --small-file

The tree: --tree, or (default) --copies copies of corpus/ and tests/soundness/ (the tree of
bench/results/cli-tree-profile.txt). Without --hipify-perl its columns are left out.
Standard library only; run with the interpreter that has cu2hip's dependencies, from any
folder. The report is printed and written to --out (JSON) and next to it (.txt).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (REPO, Contention, child_env, command_line, count_lines, git_info, header_lines,  # noqa: E402
                    list_tree, loadavg, machine_info, now, run_measured, write_results)

SOUNDNESS = REPO / "tests" / "soundness"


def build(dest: Path, copies: int) -> None:
    """`copies` copies of corpus/ and tests/soundness/ under dest/cN/ (every file, so that
    the projects' build files and data come along as a user's tree has them)."""
    for k in range(copies):
        shutil.copytree(REPO / "corpus", dest / f"c{k}" / "corpus", symlinks=True)
        shutil.copytree(SOUNDNESS, dest / f"c{k}" / "soundness", symlinks=True)


def cu2hip(*args: str) -> list[str]:
    return [sys.executable, "-m", "translator", *args]


class Runner:
    def __init__(self, tmp: Path, repeat: int):
        self.tmp, self.repeat, self.env = tmp, repeat, child_env(tmp)
        self.count = 0

    def out(self) -> Path:
        self.count += 1
        return self.tmp / f"out{self.count}"

    def once(self, cmd: list[str], env: dict | None = None) -> dict:
        figures = run_measured(cmd, env or self.env)
        if figures["rc"] != 0:
            raise SystemExit(f"failed (exit {figures['rc']}): {' '.join(cmd)}")
        return {**figures, "cpu_s": figures["user_s"] + figures["sys_s"]}

    def best(self, make, env: dict | None = None) -> dict:
        """The best of --repeat runs of `make()` (a new command each run: a new output folder)."""
        runs = [self.once(make(), env) for _ in range(self.repeat)]
        best = min(runs, key=lambda r: r["wall_s"])
        return {**best, "walls": [round(r["wall_s"], 3) for r in runs]}


def hipify(perl: str, files: list[Path], processes: int, tmp: Path, cpu: int | None = None) -> dict:
    """hipify-perl on each file, one process a file, `processes` at a time (`xargs -P N -n 1`),
    on core `cpu` only when given; the translations (hipify-perl prints them) go to one
    file. Peak RSS: hipify-perl's largest process (wait4 reports the largest of a tree)."""
    listing = tmp / "hipify-perl-files"
    listing.write_bytes(b"\0".join(str(p).encode() for p in files))
    cmd = ["xargs", "-0", "-n", "1", "-P", str(processes), perl]
    with open(listing, "rb") as names, open(tmp / "hipify-perl-output", "wb") as translations:
        figures = run_measured(["taskset", "-c", str(cpu), *cmd] if cpu is not None else cmd, {**os.environ},
                               stdout=translations, stdin=names)
    return {**figures, "cpu_s": figures["user_s"] + figures["sys_s"]}


def median_run(runner: Runner, cmd: list[str], runs: int, env: dict | None = None) -> dict:
    walls, cpus = [], []
    for _ in range(runs):
        figures = runner.once(cmd, env)
        walls.append(figures["wall_s"])
        cpus.append(figures["user_s"] + figures["sys_s"])
    return {"wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus), "walls": [round(w, 3) for w in walls]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", type=Path, help="translate this tree (default: the generated one)")
    ap.add_argument("--copies", type=int, default=4, help="copies of corpus/ and tests/soundness/ (default 4)")
    ap.add_argument("--small-file", type=Path, default=REPO / "corpus/memory/managed.cu",
                    help="the file of the one-file rows (default corpus/memory/managed.cu)")
    ap.add_argument("--hipify-perl", help="hipify-perl to measure side by side")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each row, the best counts (default 2)")
    ap.add_argument("--small-runs", type=int, default=10, help="runs of the one-file rows, the median counts")
    ap.add_argument("--cpu", type=int, default=None, help="the core for the one-core row (default: the last usable)")
    ap.add_argument("--out", type=Path, default=REPO / "bench/results/table.json")
    args = ap.parse_args()
    usable = sorted(os.sched_getaffinity(0))
    cpu = args.cpu if args.cpu is not None else usable[-1]
    jobs = [j for j in (1, 2, 4, 8, 16) if j <= len(usable)]
    wide = jobs[-1]
    contention = Contention()
    res: dict = {"benchmark": "bench/table.py", "title": "cu2hip issue 23 table", "date": now(),
                 "command": command_line(), "machine": machine_info(), "git": git_info(),
                 "loadavg_start": loadavg(), "rows": {}}
    step = lambda text: print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="cu2hip-table-") as name:
        tmp = Path(name)
        tree = args.tree.resolve() if args.tree else tmp / "tree"
        if not args.tree:
            build(tree, args.copies)
        files = list_tree(tree)
        cuda = [p for p in files if p.suffix in (".cu", ".cuh")]
        res["tree"] = {"path": str(args.tree) if args.tree else f"{args.copies} copies of corpus/ and tests/soundness/",
                       "files": len(files), "cuda_files": len(cuda),
                       "lines": sum(count_lines(p.read_bytes()) for p in files)}
        runner = Runner(tmp, args.repeat)
        rows = res["rows"]
        step(f"tree: {res['tree']}; warm-up")
        runner.once(cu2hip("translate", str(tree), "-o", str(runner.out()), "--no-cache", "-q", "-j", str(wide)))
        step("one core")
        rows["one_core"] = runner.best(lambda: ["taskset", "-c", str(cpu), *cu2hip(
            "translate", str(tree), "-o", str(runner.out()), "--no-cache", "-q", "-j", "1")])
        step("--only hipify -j 1")
        rows["only_hipify"] = runner.best(lambda: cu2hip("translate", str(tree), "-o", str(runner.out()), "--no-cache",
                                                         "-q", "-j", "1", "--only", "hipify"))
        for j in jobs:
            step(f"-j {j}")
            rows[f"j{j}"] = runner.best(lambda: cu2hip("translate", str(tree), "-o", str(runner.out()), "--no-cache",
                                                       "-q", "-j", str(j)))
        step(f"cache on, first and second run, -j {wide}")
        firsts, seconds = [], []
        for k in range(args.repeat):
            env = {**runner.env, "CU2HIP_CACHE_DIR": str(tmp / f"cache{k}")}
            out = runner.out()
            cmd = cu2hip("translate", str(tree), "-o", str(out), "-q", "-j", str(wide))
            firsts.append(runner.once(cmd, env))
            seconds.append(runner.once(cmd, env))
        rows["cache_first"] = min(firsts, key=lambda r: r["wall_s"])
        rows["cache_second"] = min(seconds, key=lambda r: r["wall_s"])
        small = args.small_file.resolve()
        res["small_file"] = {"path": str(args.small_file), "lines": count_lines(small.read_bytes())}
        step(f"one file: {small}")
        one = cu2hip("translate", str(small), "--stdout")
        runner.once(one)        # fills the cache
        rows["one_file_cached"] = median_run(runner, one, args.small_runs)
        rows["one_file_uncached"] = median_run(runner, [*one, "--no-cache"], args.small_runs)
        if args.hipify_perl:
            perl = shutil.which(args.hipify_perl) or args.hipify_perl
            inputs = cuda if cuda else files
            step(f"hipify-perl, one core, {len(inputs)} files")
            rows["hipify_one_core"] = hipify(perl, inputs, 1, tmp, cpu)
            step(f"hipify-perl, {wide} processes")
            rows["hipify_wide"] = min((hipify(perl, inputs, wide, tmp) for _ in range(args.repeat)),
                                      key=lambda r: r["wall_s"])
            rows["hipify_one_file"] = median_run(runner, [perl, str(small)], args.small_runs, {**os.environ})
            res["hipify_files"] = len(inputs)
    res["loadavg_end"] = loadavg()
    res["contention"] = contention.figures()
    res["cpu_used"] = cpu
    write_results(args.out, res, report(res, jobs), step)


def report(res: dict, jobs: list[int]) -> str:
    r, t = res["rows"], res["tree"]
    perl = "hipify_one_core" in r
    wide = jobs[-1]

    def s(row: dict) -> str:
        return f"{row['wall_s']:.2f} s" + (f" (cpu {row['cpu_s']:.2f})" if "cpu_s" in row else "")

    lines = header_lines(res) + [
        f"tree:    {t['path']}: {t['files']:,} files ({t['cuda_files']:,} .cu/.cuh), {t['lines']:,} lines",
        f"one file: {res['small_file']['path']} ({res['small_file']['lines']} lines)"
        + (f"; hipify-perl ran on the {res['hipify_files']:,} .cu/.cuh files, one process each" if perl else
           "; hipify-perl: not measured (no --hipify-perl)"),
        "", "| | cu2hip | " + ("hipify-perl | ratio | " if perl else "") + "goal |",
        "|---|---|" + ("---|---|" if perl else "") + "---|"]

    def row(label: str, ours: str, theirs: str = "", ratio: str = "", goal: str = "") -> None:
        lines.append(f"| {label} | {ours} | " + (f"{theirs} | {ratio} | " if perl else "") + f"{goal} |")

    one = r["one_core"]
    row(f"one core (taskset -c {res['cpu_used']}, -j 1)", s(one),
        s(r["hipify_one_core"]) if perl else "",
        f"{r['hipify_one_core']['wall_s'] / one['wall_s']:.1f}x" if perl else "", ">= 10x hipify-perl")
    row("--only hipify -j 1", s(r["only_hipify"]))
    row("-j " + " / ".join(map(str, jobs)), " / ".join(f"{r[f'j{j}']['wall_s']:.2f}" for j in jobs)
        + f" s: {r['j1']['wall_s'] / r[f'j{wide}']['wall_s']:.1f}x on {wide}", goal=f">= 10x its -j 1")
    if perl:
        row(f"-j {wide} vs hipify-perl {wide} processes", s(r[f"j{wide}"]), s(r["hipify_wide"]),
            f"{r['hipify_wide']['wall_s'] / r[f'j{wide}']['wall_s']:.1f}x", ">= 5x faster")
    row("peak memory, one process (-j 1)", f"{r['j1']['maxrss_mib']:.0f} MiB",
        f"{r['hipify_one_core']['maxrss_mib']:.0f} MiB" if perl else "", goal="<= 64 MiB")
    row(f"first run with the cache on, -j {wide}", s(r["cache_first"])
        + f": {r['cache_first']['wall_s'] / r[f'j{wide}']['wall_s']:.2f}x the uncached run",
        goal="<= 1.1x the uncached run")
    row("second run, unchanged tree", s(r["cache_second"]), goal="<= 0.3 s")
    row("one file, cached (median)", s(r["one_file_cached"]), s(r["hipify_one_file"]) if perl else "",
        goal="<= 0.15 s")
    row("one file, uncached (median)", s(r["one_file_uncached"]))
    lines += ["", "every run's wall times (the best counts):"]
    lines += [f"  {name}: {row['walls']}" for name, row in r.items() if "walls" in row]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
