#!/usr/bin/env python3
"""Throughput, start-up and memory benchmark for the cu2hip translator (stdlib only).

    python bench/throughput.py [--lines 200000] [--out bench/results/throughput.json] [--profile]

What it does (bench/README.md has the long form):

1. builds a tree of at least --lines lines in a temporary folder by copying corpus/
   again and again (copy0000/, copy0001/, ...: every path differs, base names are
   kept so `#include "x.cuh"` still finds its header inside each copy);
2. in-process, single process: reads and translates every file of the tree with the
   default Options, best of --rounds (lines/s, MB/s); the same for the front end alone
   (translator.frontend.parse_file as the pipeline's first round calls it, and the bare
   tree-sitter parse);
3. peak memory: ru_maxrss of a child process that runs the whole job once (os.wait4),
   and the tracemalloc peak of one in-process run;
4. whole-process time of `python -m translator translate SMALL --stdout --no-cache` and
   of the `cu2hip` console script (what a pre-commit hook runs per file), median of
   --small-runs after one warm-up, the same with the cache on (a miss, a hit), and a
   breakdown of where a fresh process spends its time;
5. the CLI over the whole tree with `-o` into a temporary folder, `--no-cache`, with
   `-j 1` and with `-j N`;
6. a phase breakdown of the in-process job (run-time wrappers around the pipeline's
   steps, the translator's code is not changed; a step that no longer exists is an
   error, not a silent gap), `python -X importtime`, and with --profile a cProfile of
   the in-process job (top 25 by cumulative and total time).

Every process it starts runs with CU2HIP_CACHE_DIR in a temporary folder, so the
user's translation cache is neither used nor changed. It prints a report, writes it
next to the JSON (same name, .txt) and writes the JSON with the date, machine, git
commit, the command line and every figure, with pass/fail against the targets.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import dataclasses
import io
import json
import os
import pstats
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (tree_lines, write_results, CORPUS, MIB, REPO, Contention, build_tree, child_env, command_line,  # noqa: E402
                    corpus_files, corpus_info, count_lines, git_info, header_lines, list_tree, loadavg,
                    machine_info, maxrss_mib, now, others_cores, run_measured, shown)

# Targets from the issue.
TARGET_LINES_PER_S = 50_000            # whole pipeline, one core
TARGET_SMALL_FILE_S = 0.15             # one small file, whole process (pre-commit hook)

# Environment of the child processes (common.child_env), set in main().
CHILD_ENV: dict | None = None


def measured(cmd: list[str], env: dict | None = None, **kwargs) -> dict:
    return run_measured(cmd, env if env is not None else CHILD_ENV, **kwargs)


def vm_hwm_mib() -> float | None:
    """This process's peak RSS from /proc (Linux), reset at exec unlike ru_maxrss."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


# ------------------------------------------------------------------ in-process jobs

def translate_job(paths: list[Path], translate=None) -> dict:
    """Read and translate every file, as the CLI does, keeping no results."""
    from translator.passes import Options
    if translate is None:
        from translator.pipeline import translate
    options = Options()
    changed = edits = errors = failures = 0
    rounds: Counter = Counter()
    first_failure = None
    for path in paths:
        data = path.read_bytes()
        try:
            result = translate(str(path), data, options)
        except Exception as exc:  # noqa: BLE001 - a crash is a finding, not a benchmark failure
            failures += 1
            if first_failure is None:
                first_failure = f"{path}: {type(exc).__name__}: {exc}"
            continue
        changed += result.changed
        edits += len(result.applied)
        errors += result.errors
        rounds[result.rounds] += 1
    return {"changed_files": changed, "edits": edits, "error_diagnostics": errors,
            "failures": failures, "first_failure": first_failure,
            "files_by_rounds_applied": {str(k): v for k, v in sorted(rounds.items())}}


def parse_file_job(paths: list[Path]) -> None:
    """The front end as the pipeline's first round calls it (macro bodies that mention
    an API are parsed; no qualifier macros, as with the default Options)."""
    from translator.frontend import parse_file
    from translator.mapping import load_tables
    from translator.scan import mentions_api
    wanted = mentions_api(load_tables())
    for path in paths:
        parse_file(path.read_bytes(), wanted)


def bare_parse_job(paths: list[Path]) -> None:
    from translator.frontend import parse
    for path in paths:
        parse(path.read_bytes())


def best_of(job, paths: list[Path], rounds: int) -> tuple[list[tuple[float, float, float | None]], object]:
    """(wall s, cpu s, cores other processes used meanwhile) of each round, and what the
    last round returned."""
    times, last = [], None
    for _ in range(rounds):
        contention = Contention()
        started, cpu = time.perf_counter(), time.process_time()
        last = job(paths)
        times.append((time.perf_counter() - started, time.process_time() - cpu,
                      contention.figures()["others_cores"]))
    return times, last


def rate(times: list[tuple[float, float, float | None]], tree: dict) -> dict:
    """Rates from the best (shortest wall) round; the CPU-time rate is less sensitive to
    other processes on a shared machine."""
    best, best_cpu, others = min(times, key=lambda t: t[0])
    return {"rounds_s": [round(t[0], 4) for t in times], "rounds_cpu_s": [round(t[1], 4) for t in times],
            "rounds_others_cores": [t[2] for t in times], "others_cores": others,
            "best_s": round(best, 4), "best_cpu_s": round(best_cpu, 4),
            "lines_per_s": round(tree["lines"] / best), "mb_per_s": round(tree["bytes"] / best / 1e6, 3),
            "files_per_s": round(tree["files"] / best, 1),
            "lines_per_cpu_s": round(tree["lines"] / best_cpu) if best_cpu else None}


def child_job_main(tree_dir: str) -> None:
    """--_child-job: import, run the whole job once, print figures as JSON (the parent
    reads this process's peak RSS through os.wait4)."""
    started = time.perf_counter()
    import translator.pipeline  # noqa: F401
    imported = time.perf_counter()
    rss_after_import = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    hwm_after_import = vm_hwm_mib()
    paths = list_tree(Path(tree_dir))
    figures = translate_job(paths)
    done = time.perf_counter()
    figures.update({"import_s": imported - started, "job_s": done - imported,
                    "maxrss_after_import_mib": maxrss_mib(rss_after_import),
                    "maxrss_self_mib": maxrss_mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss),
                    "vm_hwm_after_import_mib": hwm_after_import, "vm_hwm_mib": vm_hwm_mib()})
    print(json.dumps(figures))


# ------------------------------------------------------------------ phase breakdown

class PhaseTimer:
    """Inclusive and exclusive time per call path of wrapped functions."""

    def __init__(self) -> None:
        self.incl: dict[tuple, float] = defaultdict(float)
        self.excl: dict[tuple, float] = defaultdict(float)
        self.calls: dict[tuple, int] = defaultdict(int)
        self.label_calls: Counter = Counter()
        self.stack: list[list] = []          # [label, time spent in wrapped children]

    def wrap(self, label, fn):
        """`label`: a string, or a function of the call's (args, kwargs) giving one."""
        timer = self
        clock = time.perf_counter
        label_of = label if callable(label) else None

        def wrapper(*args, **kwargs):
            stack = timer.stack
            frame = [label_of(args, kwargs) if label_of else label, 0.0]
            stack.append(frame)
            started = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = clock() - started
                path = tuple(f[0] for f in stack)
                stack.pop()
                timer.incl[path] += elapsed
                timer.excl[path] += elapsed - frame[1]
                timer.calls[path] += 1
                timer.label_calls[frame[0]] += 1
                if stack:
                    stack[-1][1] += elapsed
        wrapper.__wrapped__ = fn
        return wrapper


ANALYSE_INPUT = "analyse: the input (round 0)"
ANALYSE_AGAIN = "analyse: a round's output (round 1+)"


def _analyse_label(args, kwargs) -> str:
    first = kwargs["first_round"] if "first_round" in kwargs else args[5]
    return ANALYSE_INPUT if first else ANALYSE_AGAIN


# The steps the phase table times: (module, attribute, label). Each must exist: the
# pipeline's names are read at call time from these modules' globals, so a wrapper set
# there is what the pipeline calls. When a refactoring renames or removes a step, this
# list is updated with it (phase_patches fails with the name).
PHASES = [
    ("pipeline", "translate", "translate"),
    ("pipeline", "SourceFile", "SourceFile (line index)"),
    ("pipeline", "check_input", "check_input"),
    ("pipeline", "load_tables", "load_tables"),
    ("pipeline", "_analyse", _analyse_label),
    ("pipeline", "mentions_api", "mentions_api"),
    ("pipeline", "parse_file", "parse_file"),
    ("frontend", "preclean", "preclean"),
    ("frontend", "parse", "tree-sitter parse"),
    ("frontend", "error_sites", "error_sites"),
    ("frontend", "wrong_tree_sites", "wrong_tree_sites"),
    ("frontend", "_configurations", "#if configurations"),
    ("frontend", "_macro_fragment", "macro bodies"),
    ("pipeline", "suppressions", "suppression comments"),
    # The facts layer builds these on first read (translator.facts.module), inside the
    # pass that reads them first: their time counts in that pass's.
    ("scan", "scan_api_uses", "scan_api_uses"),
    ("ir", "kernels_of", "build_ir"),
    ("ir", "launches_of", "build_ir"),
    ("ir", "sync_points_of", "build_ir"),
    ("pipeline", "header_fixes", "header_fixes"),
    ("finalize", "apply_fixes", "apply_fixes"),          # header_fixes' look at the round's output
    ("finalize", "insertion", "insertion"),
    ("pipeline", "apply_fixes", "apply_fixes"),
    ("pipeline", "compose", "compose"),
    ("pipeline", "_token_swap", "_token_swap"),
    ("pipeline", "_check_output", "_check_output"),
    ("pipeline", "error_sites", "error_sites"),           # _check_output's
]
# Phases of the summary table: a call belongs to the outermost of these labels on its
# call path (so a parse made by _check_output counts as the output check).
GROUPS = {
    "front end (parse_file: preclean, tree-sitter, error sites, wrong-tree shapes, #if configurations, "
    "macro bodies)": ("parse_file",),
    "scan (scan_api_uses; outside a pass only)": ("scan_api_uses",),
    "IR (kernels, launches, sync points; outside a pass only)": ("build_ir",),
    "passes": (),                                        # every `pass ...` label
    "header_fixes (finalize.py)": ("header_fixes",),
    "apply_fixes + compose (edits.py)": ("apply_fixes", "compose"),
    "settle test (_token_swap)": ("_token_swap",),
    "output check (_check_output, with its parses)": ("_check_output",),
    "setup: check_input, line index, tables, pass list, mentions_api, suppression comments":
        ("check_input", "SourceFile (line index)", "load_tables", "passes_for", "mentions_api",
         "suppression comments"),
}
_GROUP_OF = {label: group for group, labels in GROUPS.items() for label in labels}


def _group_of(label: str) -> str | None:
    return "passes" if label.startswith("pass ") else _GROUP_OF.get(label)


def phase_patches(timer: PhaseTimer) -> list[tuple[object, str, object]]:
    """(module, attribute, wrapper) for every step of PHASES and for passes_for (whose
    passes come back with their `run` wrapped). A step that does not exist is an error."""
    import translator.finalize
    import translator.frontend
    import translator.ir
    import translator.pipeline
    import translator.scan
    modules = {"pipeline": translator.pipeline, "frontend": translator.frontend, "finalize": translator.finalize,
               "scan": translator.scan, "ir": translator.ir}
    missing = [f"translator.{m}.{attr}" for m, attr, _ in [*PHASES, ("pipeline", "passes_for", None)]
               if not hasattr(modules[m], attr)]
    if missing:
        raise AttributeError(f"bench/throughput.py: the pipeline no longer has {', '.join(missing)}; "
                             f"update PHASES in bench/throughput.py")
    patches = [(modules[m], attr, timer.wrap(label, getattr(modules[m], attr))) for m, attr, label in PHASES]
    pipeline = modules["pipeline"]
    original_passes_for = pipeline.passes_for
    wrapped_runs: dict[str, object] = {}

    def passes_for(*args):
        out = []
        for info in original_passes_for(*args):
            run = wrapped_runs.get(info.id)
            if run is None:
                run = wrapped_runs[info.id] = timer.wrap(f"pass {info.id}", info.run)
            out.append(dataclasses.replace(info, run=run))
        return out
    patches.append((pipeline, "passes_for", timer.wrap("passes_for", passes_for)))
    return patches


def phase_breakdown(paths: list[Path], tree: dict) -> dict:
    timer = PhaseTimer()
    patches = phase_patches(timer)
    saved = [(module, attr, getattr(module, attr)) for module, attr, _ in patches]
    import translator.pipeline as pipeline
    read_s = 0.0
    analysed_again = 0
    try:
        for module, attr, wrapper in patches:
            setattr(module, attr, wrapper)
        translate = pipeline.translate
        from translator.passes import Options
        options = Options()
        started = time.perf_counter()
        for path in paths:
            t0 = time.perf_counter()
            data = path.read_bytes()
            read_s += time.perf_counter() - t0
            before = timer.label_calls[ANALYSE_AGAIN]
            translate(str(path), data, options)
            analysed_again += timer.label_calls[ANALYSE_AGAIN] > before
        total = time.perf_counter() - started
    finally:
        for module, attr, original in saved:
            setattr(module, attr, original)
    nodes = []
    children: dict[tuple, list[tuple]] = defaultdict(list)
    for path in timer.incl:
        children[path[:-1]].append(path)
    order: list[tuple] = []

    def visit(parent: tuple) -> None:
        for path in sorted(children.get(parent, ()), key=lambda p: -timer.incl[p]):
            order.append(path)
            visit(path)
    visit(())
    for path in order:
        nodes.append({"path": list(path), "calls": timer.calls[path], "incl_s": round(timer.incl[path], 4),
                      "self_s": round(timer.excl[path], 4),
                      "incl_pct": round(100 * timer.incl[path] / total, 2),
                      "self_pct": round(100 * timer.excl[path] / total, 2)})
    translate_s = timer.incl.get(("translate",), 0.0)
    groups: dict[str, float] = {name: 0.0 for name in GROUPS}
    groups["rest of _analyse (Context, parse-error reports)"] = 0.0
    groups["rest of translate() (the rounds loop, diagnostics, Policy.unused, Result)"] = 0.0
    for path, seconds in timer.excl.items():
        group = next((g for g in map(_group_of, path) if g is not None), None)
        if group is None:
            group = ("rest of _analyse (Context, parse-error reports)" if path[-1].startswith("analyse")
                     else "rest of translate() (the rounds loop, diagnostics, Policy.unused, Result)")
        groups[group] += seconds
    groups["reading files"] = read_s
    groups["benchmark loop"] = max(0.0, total - translate_s - read_s)
    tree_sitter_total = sum(t for p, t in timer.excl.items() if p[-1] == "tree-sitter parse")

    def analyses(label: str) -> dict:
        seconds = sum(t for p, t in timer.incl.items() if p[-1] == label)
        return {"calls": timer.label_calls[label], "s": round(seconds, 4), "pct": round(100 * seconds / total, 2)}
    check = sum(t for p, t in timer.incl.items() if p[-1] == "_check_output")
    return {
        "total_s": round(total, 4), "lines_per_s": round(tree["lines"] / total),
        "note": "one run with timing wrappers around the pipeline's steps (adds a few us per call)",
        "groups": {k: {"s": round(v, 4), "pct": round(100 * v / total, 2)} for k, v in groups.items()},
        "tree_sitter_parses": {"s": round(tree_sitter_total, 4), "pct": round(100 * tree_sitter_total / total, 2),
                               "calls": timer.label_calls["tree-sitter parse"]},
        "rounds": {"files": len(paths), "files_analysed_again": analysed_again,
                   "input": analyses(ANALYSE_INPUT), "again": analyses(ANALYSE_AGAIN),
                   "check_output": {"calls": timer.label_calls["_check_output"], "s": round(check, 4),
                                    "pct": round(100 * check / total, 2)}},
        "nodes": nodes,
    }


# ------------------------------------------------------------------ processes

def small_file_default() -> Path:
    candidates = [p for p in list_tree(CORPUS) if p.suffix == ".cu"]
    return min(candidates, key=lambda p: (count_lines(p.read_bytes()), str(p)))


def pyenv_shim() -> Path | None:
    """The pyenv shim a shell would run for `cu2hip` (pyenv puts the version's own bin
    first on PATH for processes it starts, so shutil.which does not see it)."""
    root = os.environ.get("PYENV_ROOT")
    shim = Path(root) / "shims" / "cu2hip" if root else None
    return shim if shim is not None and shim.is_file() else None


def time_process(cmd: list[str], runs: int, env: dict | None = None, fresh_cache: Path | None = None) -> dict:
    """Median of `runs` after one warm-up run. With `fresh_cache` (a folder), every run
    gets its own empty CU2HIP_CACHE_DIR under it: a cache miss each time."""
    env = dict(env if env is not None else CHILD_ENV)

    def one() -> dict:
        if fresh_cache is not None:
            env["CU2HIP_CACHE_DIR"] = tempfile.mkdtemp(prefix="cache-", dir=fresh_cache)
        return measured(cmd, env)
    one()                                   # warm-up (page cache, .pyc files)
    samples = [one() for _ in range(runs)]
    walls = [s["wall_s"] for s in samples]
    return {"command": shown(cmd), "runs": runs, "median_s": round(statistics.median(walls), 4),
            "min_s": round(min(walls), 4), "max_s": round(max(walls), 4),
            "median_cpu_s": round(statistics.median(s["user_s"] + s["sys_s"] for s in samples), 4),
            "maxrss_mib": round(max(s["maxrss_mib"] for s in samples), 1),
            "exit_codes": sorted({s["rc"] for s in samples}),
            "others_cores": None if any(s["others_cpu_s"] is None for s in samples) else
            others_cores(sum(s["others_cpu_s"] for s in samples), sum(walls))}


_COLD_SCRIPT = r"""
import json, sys, time
t0 = time.perf_counter()
import translator.cli
from translator.pipeline import translate
from translator.passes import Options, passes_for
t1 = time.perf_counter()
from translator.mapping import load_tables
load_tables()
t2 = time.perf_counter()
passes_for("hip")
t3 = time.perf_counter()
from translator.cache import fingerprint
fingerprint()
t4 = time.perf_counter()
path = sys.argv[1]
data = open(path, "rb").read()
translate(path, data, Options())
t5 = time.perf_counter()
translate(path, data, Options())
t6 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "load_tables_s": t2 - t1, "discover_passes_s": t3 - t2,
                  "cache_fingerprint_s": t4 - t3, "first_translate_s": t5 - t4, "warm_translate_s": t6 - t5}))
"""


def cold_breakdown(small: Path, runs: int) -> dict:
    """Where a fresh process spends its time before and during its one translation."""
    samples = []
    for i in range(runs + 1):
        out = subprocess.run([sys.executable, "-c", _COLD_SCRIPT, str(small)], cwd=REPO, env=CHILD_ENV,
                             capture_output=True, text=True, check=True).stdout
        if i:
            samples.append(json.loads(out))
    return {k: round(statistics.median(s[k] for s in samples), 4) for k in samples[0]}


def import_time(runs: int = 3) -> dict:
    """`python -X importtime -m translator --version`: total and the top importers (median run)."""
    cmd = [sys.executable, "-X", "importtime", "-m", "translator", "--version"]
    parsed_runs = []
    for _ in range(runs + 1):
        err = subprocess.run(cmd, cwd=REPO, env=CHILD_ENV, capture_output=True, text=True).stderr
        rows = []
        for line in err.splitlines():
            m = re.match(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S.*)$", line)
            if m:
                rows.append({"module": m.group(4), "depth": (len(m.group(3)) - 1) // 2,
                             "self_ms": int(m.group(1)) / 1000, "cumulative_ms": int(m.group(2)) / 1000})
        parsed_runs.append(rows)
    parsed_runs = parsed_runs[1:]
    totals = [sum(r["self_ms"] for r in rows) for rows in parsed_runs]
    rows = parsed_runs[sorted(range(len(totals)), key=totals.__getitem__)[len(totals) // 2]]
    top_level = [r for r in rows if r["depth"] == 0]
    return {"command": shown(cmd),
            "total_ms": round(sum(r["self_ms"] for r in rows), 1),
            "top_level_cumulative": sorted(top_level, key=lambda r: -r["cumulative_ms"])[:15],
            "top_cumulative": sorted(rows, key=lambda r: -r["cumulative_ms"])[:20],
            "top_self": sorted(rows, key=lambda r: -r["self_ms"])[:20]}


def cli_tree(tree_dir: Path, tree: dict, jobs: int) -> dict:
    """The CLI over the tree into an empty temporary folder, `-j` given explicitly (the
    CLI's default is the CPU count) and `--no-cache` (a second run would measure the cache)."""
    with tempfile.TemporaryDirectory(prefix="cu2hip-bench-out-") as out_dir:
        cmd = [sys.executable, "-m", "translator", "translate", str(tree_dir), "-o", out_dir,
               "-j", str(jobs), "--no-cache", "-q"]
        with tempfile.TemporaryFile() as err:
            run = measured(cmd, stderr=err)
            err.seek(0)
            tail = err.read().decode("utf-8", "replace").rstrip().splitlines()[-1:]
        written = sum(1 for _ in Path(out_dir).rglob("*") if _.is_file())
    return {"command": shown(cmd, {str(tree_dir): "TREE", out_dir: "OUT"}), "jobs": jobs,
            "wall_s": round(run["wall_s"], 3),
            "cpu_s": round(run["user_s"] + run["sys_s"], 3), "rc": run["rc"],
            "lines_per_s": round(tree["lines"] / run["wall_s"]),
            "lines_per_cpu_s": round(tree["lines"] / (run["user_s"] + run["sys_s"])),
            "mb_per_s": round(tree["bytes"] / run["wall_s"] / 1e6, 3),
            "maxrss_mib": round(run["maxrss_mib"], 1), "files_written": written,
            "others_cores": others_cores(run["others_cpu_s"], run["wall_s"]),
            "failure": tail[0] if run["rc"] != 0 and tail else None}


# ------------------------------------------------------------------ cProfile

def profile_job(paths: list[Path], tree_dir: Path, top: int = 25) -> tuple[dict, str]:
    """cProfile of the in-process job (top `top` by cumulative and by self time, self
    time per source file), and of the CLI over the tree run in this process."""
    from translator.pipeline import translate
    profiler = cProfile.Profile()
    profiler.enable()
    translate_job(paths, translate)
    profiler.disable()
    data, text = _profile_tables(profiler, top, "the in-process job")

    from translator import cli
    cli_profiler = cProfile.Profile()
    with tempfile.TemporaryDirectory(prefix="cu2hip-bench-out-") as out_dir, \
            contextlib.redirect_stderr(io.StringIO()):
        cli_profiler.enable()
        cli.main(["translate", str(tree_dir), "-o", out_dir, "-j", "1", "--no-cache", "-q"])
        cli_profiler.disable()
    cli_data, cli_text = _profile_tables(cli_profiler, 15, "the CLI over the tree (-o, -j 1, --no-cache, "
                                         "in this process)",
                                         keys=(("cumulative", "cumulative time"),), per_file=False)
    data["cli"] = cli_data
    return data, text + "\n\n" + cli_text


def _profile_tables(profiler: cProfile.Profile, top: int, what: str,
                    keys=(("cumulative", "cumulative time"), ("tottime", "total (self) time")),
                    per_file: bool = True) -> tuple[dict, str]:
    texts = []
    data: dict = {}
    for key, title in keys:
        stream = io.StringIO()
        pstats.Stats(profiler, stream=stream).sort_stats(key).print_stats(top)
        text = stream.getvalue().replace(str(REPO) + os.sep, "")
        texts.append(f"--- cProfile of {what}, top {top} by {title}\n" + text[text.find("   ncalls"):].rstrip())
        rows = []
        raw = pstats.Stats(profiler).sort_stats(key)
        for func in raw.fcn_list[:top]:
            _, nc, tt, ct, _ = raw.stats[func]
            filename, line, name = func
            rows.append({"function": f"{_short(filename)}:{line}({name})", "ncalls": nc,
                         "tottime_s": round(tt, 4), "cumtime_s": round(ct, 4)})
        data[key] = rows
    raw = pstats.Stats(profiler)
    data["total_s"] = round(raw.total_tt, 4)
    if per_file:
        # Self time per source file (translator modules, tree-sitter and other C calls).
        per: dict[str, float] = defaultdict(float)
        for (filename, _, name), (_, _, tt, _, _) in raw.stats.items():
            if filename == "~":
                per["C: " + re.sub(r" of '?[\w.]+'? objects", "", name.strip("{}"))] += tt
            else:
                per[_short(filename)] += tt
        total = raw.total_tt
        data["self_time_by_file"] = [{"where": k, "s": round(v, 4), "pct": round(100 * v / total, 2)}
                                     for k, v in sorted(per.items(), key=lambda kv: -kv[1])[:20]]
        lines = [f"--- cProfile of {what}, self time per source file (of {total:.2f} s profiled)"]
        lines += [f"  {row['pct']:6.2f}%  {row['s']:8.3f} s  {row['where']}" for row in data["self_time_by_file"]]
        texts.append("\n".join(lines))
    return data, "\n\n".join(texts)


def _short(filename: str) -> str:
    try:
        return str(Path(filename).resolve().relative_to(REPO))
    except ValueError:
        parts = Path(filename).parts
        for marker in ("site-packages", "lib"):
            if marker in parts:
                return "/".join(parts[parts.index(marker) + 1:])
        return filename


# ------------------------------------------------------------------ report

def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def contended(cores: float | None, by_cpu=None) -> str:
    """A note when other processes took a noticeable share of the machine meanwhile (with
    the figure by CPU time, which they disturb less, when given)."""
    if cores is None or cores < 0.1:
        return ""
    return f"  [other processes: {cores:.2f} cores meanwhile" + \
        ("" if by_cpu is None else f"; by CPU time: {by_cpu:,}") + "]"


SMALL_FILE_KEYS = ("python_baseline", "python_m_version", "python_m", "console_script", "console_script_direct",
                   "python_m_cache_miss", "python_m_cache_hit", "python_m_no_bytecode", "pyenv_shim")


def render(res: dict, profile_text: str | None) -> str:
    out: list[str] = header_lines(res)
    w = out.append
    out += tree_lines(res)
    w("")
    w("== Targets")
    for tg in res["targets"]:
        w(f"  {verdict(tg['pass'])}  {tg['name']}: {tg['value']:,} {tg['unit']} (target {tg['op']} {tg['target']:,})"
          + ("" if tg["ran_ok"] else " -- but the run failed") + contended(tg["others_cores"], tg["by_cpu_time"]))
    w("")
    p = res["pipeline"]
    w(f"== In-process, one process, best of {len(p['rounds_s'])} (read + translate, default Options)")
    w(f"  whole pipeline   {p['lines_per_s']:>9,} lines/s  {p['mb_per_s']:7.2f} MB/s  {p['files_per_s']:8.1f} files/s"
      f"  best {p['best_s']:.2f} s  rounds {p['rounds_s']}" + contended(p["others_cores"]))
    w(f"    by CPU time: {p['lines_per_cpu_s']:,} lines/s (best round {p['best_cpu_s']:.2f} s cpu)")
    w(f"    {p['changed_files']:,} files changed, {p['edits']:,} edits, {p['error_diagnostics']:,} error diagnostics,"
      f" {p['failures']} files failed" + (f" (first: {p['first_failure']})" if p["first_failure"] else ""))
    for key, label in (("parse_file", "parse_file only "), ("tree_sitter_parse", "tree-sitter only")):
        q = res["parse_only"][key]
        w(f"  {label} {q['lines_per_s']:>9,} lines/s  {q['mb_per_s']:7.2f} MB/s  {q['files_per_s']:8.1f} files/s"
          f"  best {q['best_s']:.2f} s" + contended(q["others_cores"]))
    w(f"  the whole pipeline takes {res['parse_only']['pipeline_over_parse_file']:.1f}x the time of parse_file, "
      f"{res['parse_only']['pipeline_over_tree_sitter']:.1f}x a bare tree-sitter parse")
    w("")
    mem = res["memory"]
    w("== Memory")
    cj = mem["child_job"]
    base = res["small_file"]["python_baseline"]["maxrss_mib"]
    w(f"  child process running the whole job: peak RSS {cj['maxrss_mib']:.1f} MiB "
      f"(after imports {cj['maxrss_after_import_mib']:.1f} MiB; `python -c pass` {base:.1f} MiB), "
      f"{cj['wall_s']:.2f} s wall")
    tm = mem["tracemalloc"]
    w(f"  tracemalloc, one in-process run: peak {tm['peak_mib']:.2f} MiB of Python allocations, "
      f"{tm['retained_mib']:.2f} MiB still held after the run ({tm['seconds']:.1f} s under tracemalloc)")
    w("")
    sf = res["small_file"]
    w(f"== One small file as a whole process: {sf['file']} ({sf['lines']} lines), median of {sf['runs']}")
    for key in SMALL_FILE_KEYS:
        r = sf.get(key)
        if r:
            w(f"  {r['median_s'] * 1000:7.1f} ms  (min {r['min_s'] * 1000:.1f}, max {r['max_s'] * 1000:.1f}, "
              f"cpu {r['median_cpu_s'] * 1000:.1f}, rss {r['maxrss_mib']:.0f} MiB)  {r['command']}"
              + contended(r["others_cores"])
              + (f"\n{'':13}^ {r['note']}" if r.get("note") else ""))
    cb = sf["cold_breakdown"]
    w("  inside a fresh process (median of runs): " + ", ".join(
        f"{k.removesuffix('_s').replace('_', ' ')} {v * 1000:.1f} ms" for k, v in cb.items()))
    w("")
    w("== CLI over the whole tree (-o into an empty temporary folder, --no-cache)")
    for r in res["cli_tree"]:
        w(f"  {r['lines_per_s']:>9,} lines/s  {r['wall_s']:7.2f} s wall  {r['cpu_s']:7.2f} s cpu  "
          f"rss {r['maxrss_mib']:.0f} MiB  {r['files_written']} files written  rc {r['rc']}  {r['command']}"
          f"  ({r['lines_per_cpu_s']:,} lines per CPU-s)"
          + contended(r["others_cores"]))
        if r["failure"]:
            w(f"    FAILED (exit {r['rc']}): {r['failure']}")
    w("")
    ph = res["phases"]
    w(f"== Phases of the in-process job ({ph['total_s']:.2f} s, {ph['lines_per_s']:,} lines/s with the timers)")
    for name, v in sorted(ph["groups"].items(), key=lambda kv: -kv[1]["s"]):
        w(f"  {v['pct']:6.2f}%  {v['s']:8.3f} s  {name}")
    ts_ = ph["tree_sitter_parses"]
    w(f"  (all tree-sitter parses together: {ts_['pct']:.2f}%, {ts_['s']:.3f} s, {ts_['calls']:,} parses)")
    rd = ph["rounds"]
    w(f"  rounds: {rd['files']:,} files, {rd['input']['calls']:,} analyses of the input ({rd['input']['pct']:.2f}%), "
      f"{rd['again']['calls']:,} of a round's output ({rd['again']['pct']:.2f}%, {rd['files_analysed_again']:,} "
      f"files analysed again); output check {rd['check_output']['calls']:,} calls ({rd['check_output']['pct']:.2f}%)")
    w("  call tree (inclusive %, self %, calls):")
    for node in ph["nodes"]:
        depth = len(node["path"]) - 1
        w(f"    {'  ' * depth}{node['path'][-1]:<{48 - 2 * depth}} {node['incl_pct']:6.2f}% {node['self_pct']:6.2f}%"
          f" {node['calls']:>8,}")
    w("")
    it = res["import_time"]
    w(f"== Import time: {it['command']}: {it['total_ms']:.1f} ms in imports")
    w("  by cumulative time (indented by import depth):")
    for r in it["top_cumulative"][:16]:
        w(f"    {r['cumulative_ms']:7.1f} ms  {'  ' * r['depth']}{r['module']}")
    w("  by self time:")
    for r in it["top_self"][:10]:
        w(f"    {r['self_ms']:7.1f} ms  {r['module']}")
    if profile_text:
        w("")
        w("== cProfile (one run each; cProfile slows Python code more than C calls such as the parse)")
        w(profile_text)
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=200_000, help="lines in the generated tree (at least)")
    parser.add_argument("--out", default=str(REPO / "bench/results/throughput.json"),
                        help="JSON to write; the report goes next to it as .txt")
    parser.add_argument("--profile", action="store_true", help="also run cProfile over the in-process job")
    parser.add_argument("--rounds", type=int, default=3, help="in-process rounds, best taken (default 3)")
    parser.add_argument("--small-file", help="the file for the per-process timing (default: the "
                                             "smallest .cu file of the corpus)")
    parser.add_argument("--small-runs", type=int, default=10, help="runs for the per-process timing (default 10)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="-j for the second CLI run over the tree (default: CPU count; 1 skips it)")
    parser.add_argument("--_child-job", dest="child_job", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_job:
        child_job_main(args.child_job)
        return 0

    def step(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    contention = Contention()
    res: dict = {
        "benchmark": "bench/throughput.py",
        "title": "cu2hip throughput benchmark",
        "date": now(),
        "command": command_line(),
        "cwd": os.getcwd(),
        "machine": machine_info(),
        "git": git_info(),
        "loadavg_start": loadavg(),
    }
    files = corpus_files()
    res["corpus"] = corpus_info(files)
    small = Path(args.small_file).resolve() if args.small_file else small_file_default()
    profile_text = None
    global CHILD_ENV
    saved_cache_dir = os.environ.get("CU2HIP_CACHE_DIR")
    with tempfile.TemporaryDirectory(prefix="cu2hip-bench-tree-") as tmp:
        CHILD_ENV = child_env(Path(tmp))
        # This process too (the in-process CLI of --profile): never the user's cache.
        os.environ["CU2HIP_CACHE_DIR"] = CHILD_ENV["CU2HIP_CACHE_DIR"]
        res["environment"] = ("child processes run with bytecode caching on (PYTHONPYCACHEPREFIX in a temporary "
                              "folder, PYTHONDONTWRITEBYTECODE unset), after a warm-up run, and with "
                              "CU2HIP_CACHE_DIR in a temporary folder")
        tree_dir = Path(tmp) / "tree"
        step(f"building a tree of at least {args.lines:,} lines in {tree_dir}")
        tree = res["tree"] = build_tree(tree_dir, args.lines, files)
        paths = list_tree(tree_dir)

        phase_patches(PhaseTimer())        # a step missing from the pipeline stops the run here, not later
        step("in-process whole pipeline")
        import translator.pipeline  # noqa: F401  (imports outside the timed regions)
        times, figures = best_of(translate_job, paths, args.rounds)
        res["pipeline"] = {**rate(times, tree), **figures}
        step("parse only")
        pf = rate(best_of(parse_file_job, paths, args.rounds)[0], tree)
        bare = rate(best_of(bare_parse_job, paths, args.rounds)[0], tree)
        res["parse_only"] = {"parse_file": pf, "tree_sitter_parse": bare,
                             "pipeline_over_parse_file": round(res["pipeline"]["best_s"] / pf["best_s"], 2),
                             "pipeline_over_tree_sitter": round(res["pipeline"]["best_s"] / bare["best_s"], 2)}

        step("peak memory: child process")
        out = tempfile.TemporaryFile()
        child = measured([sys.executable, str(Path(__file__).resolve()), "--_child-job", str(tree_dir)], stdout=out)
        out.seek(0)
        child_figures = json.loads(out.read().decode() or "{}")
        out.close()
        step("peak memory: tracemalloc")
        tracemalloc.start()
        started = time.perf_counter()
        translate_job(paths)
        traced_s = time.perf_counter() - started
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        res["memory"] = {
            "child_job": {"maxrss_mib": round(child["maxrss_mib"], 1), "wall_s": round(child["wall_s"], 3),
                          "rc": child["rc"],
                          "maxrss_after_import_mib": round(child_figures.get("vm_hwm_after_import_mib")
                                                           or child_figures.get("maxrss_after_import_mib", 0), 1),
                          "vm_hwm_mib": child_figures.get("vm_hwm_mib"),
                          "import_s": round(child_figures.get("import_s", 0), 4),
                          "job_s": round(child_figures.get("job_s", 0), 3)},
            "tracemalloc": {"peak_mib": round(peak / MIB, 3), "retained_mib": round(current / MIB, 3),
                            "seconds": round(traced_s, 2),
                            "note": "Python allocations only (tree-sitter's C heap is not traced); "
                                    "tables and caches were already loaded by earlier runs"},
        }

        step("phase breakdown")
        res["phases"] = phase_breakdown(paths, tree)

        step(f"whole-process time for one small file ({small.name})")
        rel_small = os.path.relpath(small, REPO)
        sf: dict = {"file": rel_small, "lines": count_lines(small.read_bytes()), "runs": args.small_runs}
        python_m = [sys.executable, "-m", "translator"]
        small_cmd = ["translate", rel_small, "--stdout", "--no-cache"]
        cached_cmd = ["translate", rel_small, "--stdout"]
        sf["python_baseline"] = time_process([sys.executable, "-c", "pass"], args.small_runs)
        sf["python_m_version"] = time_process([*python_m, "--version"], args.small_runs)
        sf["python_m"] = time_process([*python_m, *small_cmd], args.small_runs)
        on_path = shutil.which("cu2hip")
        if on_path:
            sf["console_script"] = time_process([on_path, *small_cmd], args.small_runs)
            sf["console_script"]["path"] = on_path
        direct = Path(sys.executable).parent / "cu2hip"
        if direct.is_file() and (not on_path or Path(on_path).resolve() != direct.resolve()):
            sf["console_script_direct"] = time_process([str(direct), *small_cmd], args.small_runs)
            sf["console_script_direct"]["path"] = str(direct)
        fresh = Path(tmp) / "fresh-caches"
        fresh.mkdir()
        sf["python_m_cache_miss"] = time_process([*python_m, *cached_cmd], args.small_runs, fresh_cache=fresh)
        sf["python_m_cache_miss"]["note"] = ("the cache on and empty (a new CU2HIP_CACHE_DIR each run): what the "
                                             "pre-commit hook pays for a changed file")
        hit_env = {**CHILD_ENV, "CU2HIP_CACHE_DIR": str(Path(tmp) / "hit-cache")}
        sf["python_m_cache_hit"] = time_process([*python_m, *cached_cmd], args.small_runs, env=hit_env)
        sf["python_m_cache_hit"]["note"] = "the cache on, filled by the warm-up run: every run is a hit"
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            as_is = {**os.environ, "CU2HIP_CACHE_DIR": CHILD_ENV["CU2HIP_CACHE_DIR"]}
            sf["python_m_no_bytecode"] = time_process([*python_m, *small_cmd], args.small_runs, env=as_is)
            sf["python_m_no_bytecode"]["note"] = ("as this environment runs it: PYTHONDONTWRITEBYTECODE=1, "
                                                  "the translator's sources are compiled in every process")
        shim = pyenv_shim()
        if shim is not None and (not on_path or Path(on_path).resolve() != shim.resolve()):
            sf["pyenv_shim"] = time_process([str(shim), *small_cmd], args.small_runs)
            sf["pyenv_shim"]["note"] = ("what an interactive shell runs for `cu2hip` here: a bash wrapper that "
                                        "starts `pyenv exec`, then the console script")
        sf["cold_breakdown"] = cold_breakdown(small, min(args.small_runs, 5))
        res["small_file"] = sf

        step("CLI over the whole tree")
        res["cli_tree"] = [cli_tree(tree_dir, tree, 1)]
        if args.jobs > 1:
            res["cli_tree"].append(cli_tree(tree_dir, tree, args.jobs))

        step("import time")
        res["import_time"] = import_time()

        if args.profile:
            step("cProfile")
            res["profile"], profile_text = profile_job(paths, tree_dir)
    if saved_cache_dir is None:
        os.environ.pop("CU2HIP_CACHE_DIR", None)
    else:
        os.environ["CU2HIP_CACHE_DIR"] = saved_cache_dir

    res["loadavg_end"] = loadavg()
    res["contention"] = contention.figures()
    targets = [
        {"name": "in-process whole pipeline, one core", "value": res["pipeline"]["lines_per_s"],
         "unit": "lines/s", "op": ">=", "target": TARGET_LINES_PER_S, "ran_ok": res["pipeline"]["failures"] == 0,
         "others_cores": res["pipeline"]["others_cores"], "by_cpu_time": res["pipeline"]["lines_per_cpu_s"]},
        {"name": "CLI over the tree, -j 1 (end to end, incl. start-up and writing)",
         "value": res["cli_tree"][0]["lines_per_s"], "unit": "lines/s", "op": ">=", "target": TARGET_LINES_PER_S,
         "ran_ok": res["cli_tree"][0]["rc"] == 0, "others_cores": res["cli_tree"][0]["others_cores"],
         "by_cpu_time": res["cli_tree"][0]["lines_per_cpu_s"]},
    ]
    for key in ("python_m", "console_script", "console_script_direct"):
        if key in sf:
            targets.append({"name": f"one small file, `{sf[key]['command']}`, median", "value": sf[key]["median_s"],
                            "unit": "s", "op": "<", "target": TARGET_SMALL_FILE_S,
                            "ran_ok": sf[key]["exit_codes"] == [0], "others_cores": sf[key]["others_cores"],
                            "by_cpu_time": sf[key]["median_cpu_s"]})
    for tg in targets:
        met = tg["value"] >= tg["target"] if tg["op"] == ">=" else tg["value"] < tg["target"]
        tg["pass"] = met and tg["ran_ok"]
    res["targets"] = targets
    res["all_pass"] = all(tg["pass"] for tg in targets)

    write_results(Path(args.out), res, render(res, profile_text), step)
    return 0


if __name__ == "__main__":
    sys.exit(main())
