"""The analyses run in every preprocessor configuration: code inside `#if`/`#ifndef`
groups (an include guard holds a whole header) is analysed as the file's (issue 15,
item 7: an include-guarded header's warp reductions got neither fix nor warning)."""

from __future__ import annotations

from translator.passes import Options
from translator.pipeline import translate

REDUCE = "__device__ float warp_sum(float v) {\n  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n" \
         "  return v;\n}\n"


def _out(source: str, path: str = "t.cuh") -> tuple[str, list[str]]:
    result = translate(path, source.encode(), Options(rocm_version=(5, 2)))
    return result.output.decode(), [d.code for d in result.diagnostics]


def test_an_include_guarded_headers_warp_reduction_gets_the_fix_an_unguarded_one_gets() -> None:
    guarded, _ = _out("#ifndef WARP_CUH\n#define WARP_CUH\n" + REDUCE + "#endif\n")
    unguarded, _ = _out("#pragma once\n" + REDUCE)
    assert "__shfl_down(v, o, 32)" in guarded and "__shfl_down(v, o, 32)" in unguarded


def test_both_branches_of_an_if_group_are_analysed() -> None:
    out, _ = _out("#if defined(FAST)\n" + REDUCE + "#else\n" + REDUCE.replace("warp_sum", "warp_sum2") + "#endif\n")
    assert out.count("__shfl_down(v, o, 32)") == 2


def test_a_kernel_in_an_if_group_is_bounded_by_its_launch() -> None:
    out, _ = _out("#ifdef USE_GPU\n__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
                  "void f(float *x) { k<<<1, 128>>>(x); }\n#endif\n", "t.cu")
    assert "__global__ void __launch_bounds__(128) k(" in out
