"""The run's one pool (translator.commands.run.RunPool) and the files' scans
(translator.filescan): a pooled run's parent reads and scans no file of the walk and
does not walk the project (a worker does), every
file is scanned once a run, and a pooled run gives what a run of one worker gives, over a
tree whose files need each other's qualifier macros and launch each other's kernels."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import translator.commands.run as run
import translator.filescan as filescan
import translator.universe as universe
import translator.workspace as workspace_
from translator.workspace import Selection, Workspace

ROOT = Path(__file__).resolve().parent.parent
ROCM = ("--rocm-version", "6.2")

pytestmark = pytest.mark.skipif(multiprocessing.get_start_method() != "fork",
                                reason="counts the parent's calls: the workers must be its forks")

DEFS = b"#pragma once\n#define HD __host__ __device__\n#define DEV __device__\n"
KERNELS = (b'#pragma once\n#include "defs.h"\nHD inline float twice(float v) { return 2.0f * v; }\n'
           b"__global__ void scale(float *x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           b"    if (i < n) x[i] = twice(x[i]);\n}\n")
LAUNCH = (b'#include "kernels.cuh"\nint main() {\n    float *x;\n    cudaMalloc(&x, 4096 * sizeof(float));\n'
          b"    scale<<<4, 1024>>>(x, 4096);\n    other<<<8, 512>>>(x, 4096);\n    cudaDeviceSynchronize();\n"
          b"    return 0;\n}\n")
OTHER = (b'#include "defs.h"\nDEV float half(float v) { return 0.5f * v; }\n'
         b"__global__ void other(float *x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         b"    if (i < n) x[i] = half(x[i]);\n}\n")
DECLARES = b"__global__ void other(float *x, int n);\n"
LAUNCH = DECLARES + LAUNCH


def _tree(root: Path) -> Path:
    """Two programs' worth of files: `HD` and `DEV` defined in defs.h only, `scale`
    defined in a header and launched by its includer, `other` defined in one .cu and
    launched from another that declares it; a binary .cu and a build file besides."""
    for name in ("p", "q"):
        folder = root / name
        folder.mkdir(parents=True)
        (folder / "defs.h").write_bytes(DEFS)
        (folder / "kernels.cuh").write_bytes(KERNELS)
        (folder / "main.cu").write_bytes(LAUNCH)
        (folder / "other.cu").write_bytes(OTHER)
        (folder / "blob.cu").write_bytes(b"\x00\x01binary\x00" * 8)
        (folder / "CMakeLists.txt").write_bytes(b"project(p LANGUAGES CXX CUDA)\nadd_executable(p main.cu other.cu)\n")
    return root


def _counting(monkeypatch, module, name: str) -> list:
    calls: list = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args[0] if args else None)
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_pooled_run_reads_and_scans_no_file_in_the_parent(tmp_path, monkeypatch):
    tree = _tree(tmp_path / "t")
    # In the parent only: the workers are forks from before the counters are read.
    scanned = _counting(monkeypatch, workspace_, "scan")
    kernels = _counting(monkeypatch, universe, "kernels_of")
    reads = _counting(monkeypatch, filescan, "read_regular"), _counting(monkeypatch, workspace_, "read_regular")
    walks = _counting(monkeypatch, universe, "walk")        # the project's walk (translator.universe.project_files)
    folders: list[str] = []
    mkdtemp = tempfile.mkdtemp      # run.py imports tempfile where the pool's folder is made
    monkeypatch.setattr(tempfile, "mkdtemp", lambda **kw: folders.append(mkdtemp(**kw)) or folders[-1])
    workspace = Workspace.collect([str(tree)], Selection(), workers=2)
    assert workspace.pool is not None
    batch = run.Batch(workspace, _options(), 2, use_cache=False)
    results = list(batch.results())
    assert len(results) == 12
    assert scanned == [] and kernels == [] and reads == ([], []) and walks == []
    assert workspace.qualifier_macros == frozenset({b"HD", b"DEV"})
    assert batch.pool is None       # closed with its last phase
    # The phases' work went through one folder of the pool, removed with it.
    assert len(folders) == 1 and not os.path.exists(folders[0])


def test_a_run_of_one_worker_scans_each_file_once(tmp_path, monkeypatch):
    tree = _tree(tmp_path / "t")
    scanned = _counting(monkeypatch, workspace_, "scan")
    kernels = _counting(monkeypatch, universe, "kernels_of")
    walks = _counting(monkeypatch, universe, "walk")
    workspace = Workspace.collect([str(tree)], Selection(), workers=1)
    assert workspace.pool is None
    batch = run.Batch(workspace, _options(), 1, use_cache=False)
    list(batch.results())
    assert batch.pool is None
    # Every file once: the workspace's read; the local headers and the launch universe
    # read its scan (the build files too: the universe reads every file's kernels).
    assert len(scanned) == len(kernels) == len(workspace.jobs) == 12
    assert sorted(scanned) == sorted(workspace.contents.values())
    assert walks == [tree]      # the project's files, walked once for the headers and the universe


def test_the_pooled_workspace_is_the_serial_one(tmp_path):
    tree = _tree(tmp_path / "t")
    serial = Workspace.collect([str(tree)], Selection(), workers=1)
    pooled = Workspace.collect([str(tree)], Selection(), workers=2)
    try:
        assert pooled.jobs == serial.jobs
        assert pooled.contents == serial.contents
        assert pooled.qualifier_macros == serial.qualifier_macros == frozenset({b"HD", b"DEV"})
        assert pooled.declared_names == serial.declared_names
        assert pooled.scans.known == serial.scans.known
        headers = run.local_headers(serial), run.local_headers(pooled)
        assert headers[0] == headers[1] and headers[0]
        index = run.launch_index(serial, None, headers[0]), run.launch_index(pooled, None, headers[1])
        assert index[0] == index[1]
        assert {(name, Path(home).name) for name, home, _ in index[0]} == {("scale", "kernels.cuh"),
                                                                            ("other", "other.cu")}
    finally:
        pooled.close()


def _options():
    from translator.passes import Options
    return Options()


def _cli(*args: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), CU2HIP_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-m", "translator", *args], cwd=cwd, capture_output=True, env=env)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("cache", [(), ("--no-cache",)])
def test_one_worker_and_a_pool_write_the_same_bytes_and_say_the_same(tmp_path, cache):
    tree = _tree(tmp_path / "t")
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        # Each run its own cache: neither answers from the other's.
        proc = _cli("translate", str(tree), "-o", str(out), "-j", jobs, *cache, *ROCM, cwd=tmp_path,
                    cache=tmp_path / f"cache{jobs}")
        assert proc.returncode == 0, proc.stderr
        runs[jobs] = (_files(out), proc.stderr.decode())
    assert runs["1"] == runs["2"]
    files, stderr = runs["1"]
    # The cross-file facts took: scale's launch from main.cu bounds it where it is defined.
    assert b"__launch_bounds__(1024)" in files["p/kernels.cuh"] and b"__launch_bounds__(512)" in files["p/other.cu"]
    assert stderr.count("blob.cu") == 2 and "binary" in stderr
