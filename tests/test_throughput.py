"""Issue 23, the serial part of a run: one pool for both phases, started before the walk;
folders resolved once a phase; the phases' times on request (CU2HIP_PHASES)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from translator import inputs
from translator.cli import main

ROCM = ["--rocm-version", "6.0"]
KERNEL = b"__global__ void k(float *x) { x[threadIdx.x] = 1; }\nvoid h(float *p) { k<<<1, 256>>>(p); }\n"


def _links_tree(root: Path) -> list[Path]:
    """Folders, links to folders and files, a loop, a dangling link, `..` through a link."""
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f.cu").write_bytes(b"x")
    (root / "to_a").symlink_to("a")
    (root / "a" / "b" / "g.cu").symlink_to("f.cu")
    (root / "a" / "up").symlink_to("..")
    (root / "loop1").symlink_to("loop2")
    (root / "loop2").symlink_to("loop1")
    (root / "dangling").symlink_to("nowhere/x")
    paths = [root / "a" / "b" / "f.cu", root / "to_a" / "b" / "f.cu", root / "to_a" / "b" / "g.cu",
             root / "a" / "up" / "a" / "b" / "g.cu", root / "to_a" / ".." / "a" / "b" / "f.cu",
             root / "to_a" / "b" / ".." / "b" / "f.cu", root / "loop1" / "x.cu", root / "dangling",
             root / "a" / "missing.cu", root / "a" / "b" / "f.cu" / "below_a_file", root / "to_a" / "b",
             root / "to_a" / "b" / ".", root / "to_a" / "b" / ".."]
    return paths + [Path(os.path.relpath(p)) for p in paths]


def test_a_walks_real_paths_are_realpaths_answers(tmp_path: Path):
    paths = _links_tree(tmp_path)
    expected = [Path(os.path.realpath(p)) for p in paths]
    with inputs.folders_known():
        assert [inputs.real_path(p) for p in paths] == expected
        assert [inputs.real_path(p) for p in paths] == expected     # the folders known now
    assert inputs._FOLDERS is None


def test_a_walks_real_paths_look_at_each_folder_once(tmp_path: Path, monkeypatch):
    deep = tmp_path / "d1" / "d2" / "d3" / "d4"
    deep.mkdir(parents=True)
    files = [deep / f"f{i}.cu" for i in range(50)]
    for f in files:
        f.write_bytes(b"x")
    calls = []
    real_lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda p, *a, **k: calls.append(p) or real_lstat(p, *a, **k))
    plain = [inputs.real_path(f) for f in files]
    plain_calls = len(calls)
    calls.clear()
    with inputs.folders_known():
        known = [inputs.real_path(f) for f in files]
    assert known == plain
    # realpath: every component of every path; here one lstat a file, and the folder once.
    assert plain_calls >= 50 * len(files[0].parts) - 50
    assert len(calls) <= 50 + len(files[0].parts)


def test_a_link_retargeted_between_two_phases_is_seen(tmp_path: Path):
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    (tmp_path / "l").symlink_to("x")
    with inputs.folders_known():
        assert inputs.real_path(tmp_path / "l" / "f") == Path(os.path.realpath(tmp_path / "x" / "f"))
    (tmp_path / "l").unlink()
    (tmp_path / "l").symlink_to("y")
    with inputs.folders_known():
        assert inputs.real_path(tmp_path / "l" / "f") == Path(os.path.realpath(tmp_path / "y" / "f"))


def _tree(root: Path, files: int) -> Path:
    root.mkdir()
    for i in range(files):
        body = KERNEL.replace(b"k", f"k{i}".encode()) * (1 + (i * 7) % 5)    # sizes vary: chunks reordered
        (root / f"f{i:02}.cu").write_bytes(body)
    (root / "shared.cuh").write_bytes(b"__global__ void s(float *x);\n")
    (root / "main.cu").write_bytes(b'#include "shared.cuh"\nint main() { float *p; s<<<1, 512>>>(p); }\n')
    (root / "s.cu").write_bytes(b"__global__ void s(float *x) { x[threadIdx.x] = 0; }\n")
    return root


@pytest.mark.parametrize("overlap_from", [1, 10**6], ids=["workers import the passes", "the parent does"])
def test_one_pool_serves_both_phases_and_the_output_never_depends_on_it(tmp_path: Path, capfd, monkeypatch,
                                                                        overlap_from: int):
    import translator.commands.run as run_module
    monkeypatch.setattr(run_module, "_OVERLAP_MIN_CPUS", overlap_from)
    tree = _tree(tmp_path / "t", 40)
    runs = {}
    for jobs in ("1", "3"):
        out = tmp_path / f"out{jobs}"
        status = main(["translate", str(tree), "-o", str(out), "-j", jobs, "--no-cache", *ROCM])
        captured = capfd.readouterr()
        runs[jobs] = (status, captured.out, captured.err,
                      {p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert runs["1"] == runs["3"]
    assert runs["1"][0] == 0 and len(runs["1"][3]) == 43
    # The kernel another file launches with 512 threads is bounded by it (the launch index,
    # built in the pool, reached the translation, in the same pool).
    assert b"__launch_bounds__(512)" in runs["1"][3]["s.cu"]


def _phases(tmp_path: Path, tree: Path, jobs: str) -> list[str]:
    env = {**os.environ, "CU2HIP_PHASES": "1"}
    env.pop("CU2HIP_PHASES_ORIGIN", None)
    proc = subprocess.run([sys.executable, "-m", "translator", "translate", str(tree), "-o", str(tmp_path / f"o{jobs}"),
                           "-j", jobs, "--no-cache", "-q", *ROCM], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stderr.splitlines() if line.startswith("cu2hip-phase:")]


_LINE = re.compile(r"cu2hip-phase: \+(\d+\.\d{3}) \.\. \+(\d+\.\d{3}) s  (\d+\.\d{3}) s  pid (\d+)  (.+?)"
                   r"  cpu \d+\.\d{3} s$")


def test_the_phases_times_are_printed_on_request_and_only_then(tmp_path: Path):
    tree = _tree(tmp_path / "t", 12)
    lines = _phases(tmp_path, tree, "2")
    parsed = [_LINE.match(line) for line in lines]
    assert all(parsed), lines
    names = [m.group(5) for m in parsed]
    parent = {m.group(4) for m in parsed if m.group(5) == "command"}
    assert len(parent) == 1
    for phase in ("imports", "collect", "local headers", "launch index", "batch set-up", "translation", "copies",
                  "command"):
        assert names.count(phase) == 1, names
    workers = [m for m in parsed if "worker:" in m.group(5)]
    # Two workers, each in both phases, one process each for the whole run.
    assert sorted(m.group(5).split(":")[0] for m in workers) == ["facts worker"] * 2 + ["translation worker"] * 2
    assert len({m.group(4) for m in workers}) == 2 and not parent & {m.group(4) for m in workers}
    tasks = sum(int(re.search(r": (\d+) tasks", m.group(5)).group(1)) for m in workers
                if m.group(5).startswith("translation"))
    assert tasks == 15
    for m in parsed:
        start, end, took = float(m.group(1)), float(m.group(2)), float(m.group(3))
        assert 0 <= start <= end and abs(end - start - took) < 0.002
    proc = subprocess.run([sys.executable, "-m", "translator", "translate", str(tree), "-o", str(tmp_path / "plain"),
                           "-j", "2", "--no-cache", "-q", *ROCM], capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if not k.startswith("CU2HIP_PHASES")}, timeout=300)
    assert proc.returncode == 0 and proc.stderr == ""


@pytest.mark.parametrize("overlap_from", [1, 10**6], ids=["workers import the passes", "the parent does"])
def test_a_pool_serves_two_phases_in_order(overlap_from: int, monkeypatch):
    import translator.commands.run as run_module
    monkeypatch.setattr(run_module, "_OVERLAP_MIN_CPUS", overlap_from)
    pool = run_module.Pool(2)
    try:
        order = list(pool.map("test", _Echo(), [(k,) for k in range(40)], [k % 7 for k in range(40)]))
        assert [k for k, _ in order] == list(range(40))
        workers = {pid for _, pid in order}
        assert os.getpid() not in workers and workers <= {p.pid for p, _ in pool.workers}
        assert pool.catalog() and all(type(rule) is dict for rule in pool.catalog())
        # A second phase, other work, the same workers.
        assert list(pool.map("test", _Twice(), [(k,) for k in range(5)], [1] * 5)) == [0, 2, 4, 6, 8]
        with pytest.raises(ZeroDivisionError):
            list(pool.map("test", _Fails(), [(k,) for k in range(9)], [1] * 9))
    finally:
        pool.close()
    assert pool.workers == []


class _Echo:
    def __call__(self, k):
        return k, os.getpid()


class _Twice:
    def __call__(self, k):
        return 2 * k


class _Fails:
    def __call__(self, k):
        return 1 // (k - 4)


def test_the_heaviest_chunks_go_first():
    from translator.commands.run import _heaviest_first
    weights = [1] * 64
    weights[60] = 500       # a long file last in the tree's order
    weights[3] = 200
    chunks = _heaviest_first(weights, 2)     # 64 tasks, 2 workers: chunks of 4
    assert [len(c) for c in chunks] == [4] * 16
    assert 60 in chunks[0] and 3 in chunks[1]
    assert chunks[2:] == sorted(chunks[2:], key=lambda c: c.start)       # ties keep the tree's order
    assert sorted(k for c in chunks for k in c) == list(range(64))


def test_a_pool_left_midway_kills_its_busy_workers_at_once():
    # An error or ^C in the parent: the workers' answers are no longer wanted; a worker
    # in the middle of a long file must not hold the command up.
    import time

    from translator.commands.run import Pool
    pool = Pool(2)
    processes = [process for process, _ in pool.workers]
    results = pool.map("test", _Slow(), [(k,) for k in range(6)], [1] * 6)
    assert next(results) == 0
    started = time.monotonic()
    results.close()
    pool.close()
    assert time.monotonic() - started < 1.5
    assert not any(process.is_alive() for process in processes)


class _Slow:
    def __call__(self, k):
        import time
        if k:
            time.sleep(30)
        return k
