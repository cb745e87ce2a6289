"""bench/reach.py: what each optimizing family did and refused, over programs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _reach():
    spec = importlib.util.spec_from_file_location("bench_reach", ROOT / "bench" / "reach.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KERNEL = "__global__ void scale(float *x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
         "    if (i < n) x[i] *= 2.0f;\n}\n"


def test_launch_bounds_refusals_are_counted_under_launch_bounds(tmp_path, monkeypatch) -> None:
    """L002 and L003 are the launch-bounds refusals; the pattern of refusals left them out."""
    monkeypatch.setenv("CU2HIP_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "runtime.cu").write_text(KERNEL + "int main(int argc, char **argv) { int t = argc * 64;\n"
                                         "    scale<<<4, t>>>(0, 256); }\n")
    (tmp_path / "fixed.cu").write_text(KERNEL + "int main() { scale<<<4, 128>>>(0, 512); }\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "k.cuh").write_text("#pragma once\n" + KERNEL)
    reach = _reach()
    result = reach.measure(reach.programs([str(tmp_path)]), ["--rocm-version", "6.0", "--no-rebalance"])
    assert result["fired"]["launch bounds"] == [1, 1]
    assert result["refused"]["launch bounds"] == [2, 2]           # fixed.cu bounded; the others refused
    rules = sorted(text.split()[0] for text, _ in result["refusals"])
    assert rules.count("L002") == 1 and rules.count("L003") == 1, result["refusals"]
    shown = reach.show(result)
    assert "family          programs  sites  refused  refusals" in shown
    assert "launch bounds          1      1        2         2" in shown


def test_a_rewrite_joined_into_a_later_one_over_the_same_bytes_still_counts(tmp_path, monkeypatch) -> None:
    """A launch rebalanced (L007) inside the loop R012 then captures: the output's one edit
    is under R012 with both reasons; rebalancing fired there all the same."""
    monkeypatch.setenv("CU2HIP_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "loop.cu").write_text(
        '#define TPB 512\n'
        '__global__ void scale(float *x, long n) {\n'
        '    for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n'
        '        x[i] *= 2.0f;\n'
        '}\n'
        'static int pick(long n) { return n > 65536 ? 1024 : 8; }\n'
        'int main(int argc, char **argv) {\n'
        '    long n = 4096;\n'
        '    int repeat = argc > 1 ? 100 : 50;\n'
        '    float *d; cudaMalloc(&d, n * sizeof(float));\n'
        '    int blocks = pick(n);\n'
        '    for (int r = 0; r < repeat; ++r) {\n'
        '        scale<<<blocks, TPB>>>(d, n);\n'
        '    }\n'
        '    cudaDeviceSynchronize();\n'
        '    cudaFree(d);\n'
        '}\n'
    )
    reach = _reach()
    found = reach.translate(tmp_path / "loop.cu", ["--rocm-version", "6.0"])
    edits = found["files"][0]["edits"]
    assert "L007" not in {e["rule"] for e in edits} and any("moves from 512 to 256" in e["reason"] for e in edits)
    result = reach.measure([tmp_path / "loop.cu"], ["--rocm-version", "6.0"])
    assert result["fired"]["rebalancing"] == [1, 1]
    assert result["fired"]["runtime"] == [1, 1]
