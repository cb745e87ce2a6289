"""bench/reach.py: what each optimizing family did and refused, over programs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


KERNEL = "__global__ void scale(float *x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
         "    if (i < n) x[i] *= 2.0f;\n}\n"


def test_launch_bounds_refusals_are_counted_under_launch_bounds(tmp_path, monkeypatch, bench_reach) -> None:
    """L002 and L003 are the launch-bounds refusals; the pattern of refusals left them out."""
    monkeypatch.setenv("CU2HIP_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "runtime.cu").write_text(KERNEL + "int main(int argc, char **argv) { int t = argc * 64;\n"
                                         "    scale<<<4, t>>>(0, 256); }\n")
    (tmp_path / "fixed.cu").write_text(KERNEL + "int main() { scale<<<4, 128>>>(0, 512); }\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "k.cuh").write_text("#pragma once\n" + KERNEL)
    reach = bench_reach
    result = reach.measure(reach.programs([str(tmp_path)]), ["--rocm-version", "6.0", "--no-rebalance"])
    assert result["fired"]["launch bounds"] == [1, 1]
    assert result["refused"]["launch bounds"] == [2, 2]           # fixed.cu bounded; the others refused
    rules = sorted(text.split()[0] for text, _ in result["refusals"])
    assert rules.count("L002") == 1 and rules.count("L003") == 1, result["refusals"]
    shown = reach.show(result)
    assert "family          programs  sites  refused  refusals" in shown
    assert "launch bounds          1      1        2         2" in shown


def test_a_rewrite_joined_into_a_later_one_over_the_same_bytes_still_counts(tmp_path, monkeypatch, bench_reach) -> None:
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
    reach = bench_reach
    found = reach.translate(tmp_path / "loop.cu", ["--rocm-version", "6.0"])
    edits = found["files"][0]["edits"]
    assert "L007" not in {e["rule"] for e in edits} and any("moves from 512 to 256" in e["reason"] for e in edits)
    result = reach.measure([tmp_path / "loop.cu"], ["--rocm-version", "6.0"])
    assert result["fired"]["rebalancing"] == [1, 1]
    assert result["fired"]["runtime"] == [1, 1]


def test_launches_lists_each_launch_with_its_block_and_verdict(tmp_path) -> None:
    """bench/launches.py: the launches already at --block-size, which no refusal names, are listed too."""
    import os
    import subprocess
    import sys
    (tmp_path / "a.cu").write_text(KERNEL + "__global__ void tile(float *x) {\n    __shared__ float t[64];\n"
                                   "    t[threadIdx.x] = x[threadIdx.x];\n    __syncthreads();\n"
                                   "    x[threadIdx.x] = t[63 - threadIdx.x];\n}\n"
                                   "int main() { scale<<<4, 256>>>(0, 1024); scale<<<8, 128>>>(0, 1024);\n"
                                   "    tile<<<1, 64>>>(0); }\n")
    env = {**os.environ, "CU2HIP_CACHE_DIR": str(tmp_path / "cache")}

    def run(*extra):
        return subprocess.run([sys.executable, str(ROOT / "bench" / "launches.py"), str(tmp_path), *extra],
                              capture_output=True, text=True, env=env, check=True).stdout
    lines = run().splitlines()
    assert [line.split("  ", 1)[1] for line in lines] == [
        "scale  block=256  values=(256,)  why=- | agnostic (guard)",
        "scale  block=128  values=(128,)  why=- | agnostic (guard)",
        "tile  block=64  values=(64,)  why=- | it uses shared memory (t): its threads cooperate within a block"]
    assert run("--counts").splitlines() == ["launches: 3", "     1  block at --block-size  agnostic",
                                            "     1  block elsewhere        agnostic",
                                            "     1  block elsewhere        block-dependent"]
