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
