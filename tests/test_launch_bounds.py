"""The launch-bounds pass: host-side values, bounds from every launch (in a file and across
a tree), CUDA's second argument in HIP's terms, the attributes HIP lacks, and hipcc's
verdict: the corpus's register-heavy kernels spill without bounds and do not with them."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from translator import toolchain
from translator.cli import main
from translator.frontend import parse_file
from translator.ir import build_ir
from translator.ir.host_values import HostValues, LocalHeaders
from translator.passes import Options
from translator.pipeline import translate

ROOT = Path(__file__).resolve().parent.parent
HIP = Options(rocm_version=(5, 2), fuse=False, rebalance=False)     # rebalancing: tests/test_rebalance.py

DECLARATIONS = """#define BLOCK 128
#define TWICE (2 * BLOCK)
#define NOTED 192 // threads per block
#define BOXED /* threads */ 320
#define WHO_KNOWS(x) x
enum { kThreads = 64, kNext };
struct Cfg { static constexpr int kBlock = 256; };
namespace cfg { const int kWarps = 4; }
constexpr int WARPS = 4;
__global__ void k(float *x) {}
template <int BS> void run_t(float *x) { k<<<1, BS>>>(x); }
void g(float *x) { run_t<64>(x); run_t<32 * 4>(x); }
"""


def _block(body: str, declarations: str = DECLARATIONS) -> tuple[tuple[int, ...], str]:
    source = declarations + "void f(float *x, int n, int bs) {\n" + body + "\n}\n"
    parsed = parse_file(source.encode())
    module = build_ir("t.cu", parsed)
    site = module.launches[-1]
    value = HostValues(parsed).block_size(site)
    return value.values, value.reason


@pytest.mark.parametrize("body, values", [
    ("k<<<1, 256>>>(x);", (256,)),
    ("k<<<1, 0x80>>>(x);", (128,)),
    ("const int t = 2 * BLOCK; k<<<1, t>>>(x);", (256,)),
    ("int t = 96; k<<<n, t>>>(x);", (96,)),                   # never written: its initializer
    ("k<<<1, TWICE>>>(x);", (256,)),
    ("k<<<1, kNext>>>(x);", (65,)),
    ("k<<<1, Cfg::kBlock>>>(x);", (256,)),
    ("k<<<1, cfg::kWarps * 32>>>(x);", (128,)),
    ("k<<<1, dim3(WARPS * 32)>>>(x);", (128,)),
    ("dim3 b(16, 16); k<<<1, b>>>(x);", (256,)),
    ("dim3 b{8, 8, 2}; k<<<1, b>>>(x);", (128,)),
    ("k<<<1, kThreads + sizeof(float4)>>>(x);", (80,)),
    ("k<<<1, (int)(sizeof(double) * 16)>>>(x);", (128,)),
    ("k<<<1, std::min(1024, 4 * 64)>>>(x);", (256,)),
    ("k<<<1, WARPS > 2 ? 256 : 128>>>(x);", (256,)),
    ("k<<<1, NOTED>>>(x);", (192,)),                         # a macro's comments are not its value
    ("k<<<1, BOXED>>>(x);", (320,)),
    ("dim3 b(64); k<<<(n + b.x - 1) / b.x, b.x>>>(x);", (64,)),
    # The most vexing parse: tree-sitter reads these as function declarations.
    ("dim3 b(WARPS*kThreads); k<<<1, b>>>(x);", (256,)),            # `WARPS *kThreads`, a "parameter"
    ("dim3 b(kThreads, WARPS); k<<<1, b.y * b.x>>>(x);", (256,)),
    ("const dim3 b(BLOCK); k<<<1, b>>>(x);", (128,)),
    # A local whose block or for has ended is not the name at the launch.
    ("{ int WARPS = 64; n -= WARPS; } k<<<1, WARPS * 32>>>(x);", (128,)),
    ("for (int WARPS = 0; WARPS < 2; WARPS++) n += WARPS; k<<<1, WARPS * 32>>>(x);", (128,)),
    ("dim3 b(32); if (n) { dim3 b(64); k<<<1, b>>>(x); } k<<<1, b>>>(x);", (32,)),
])
def test_block_sizes_the_file_determines(body, values) -> None:
    assert _block(body) == (values, "")


def test_a_template_argument_takes_the_values_of_every_call() -> None:
    parsed = parse_file(DECLARATIONS.encode())
    module = build_ir("t.cu", parsed)
    assert HostValues(parsed).block_size(module.launches[0]).values == (64, 128)


TEMPLATES = """#define BLOCK 128
enum { kThreads = 64 };
struct Cfg { static constexpr int kBlock = 256; };
namespace cfg { const int kWarps = 4; }
__global__ void k(float *x) {}
"""


def _templated(source: str, path: str = "") -> tuple[tuple[int, ...], str]:
    """The block sizes of the file's first launch (the one in the launching template)."""
    parsed = parse_file((TEMPLATES + source).encode())
    value = HostValues(parsed, path=path).block_size(build_ir("t.cu", parsed).launches[0])
    return value.values, value.reason


@pytest.mark.parametrize("source, values", [
    # An argument tree-sitter reads as a type (a name alone) is a name all the same.
    ("template <typename T, int B> void run(T *x) { k<<<1, B>>>(x); }\n"
     "void g(float *x) { run<float, BLOCK>(x); run<float, kThreads>(x); run<float, Cfg::kBlock>(x); }", (64, 128, 256)),
    ("template <int B> void run(float *x) { k<<<1, B>>>(x); }\n"
     "void g(float *x) { run<cfg::kWarps * 64>(x); run<sizeof(double) * 16>(x); run<(BLOCK)>(x); }", (128, 256)),
    # A template argument of a template: the values of the outer one's calls (HeCBench scan).
    ("template <typename T, int N> void runTest(T *x) { k<<<1, N / 2>>>(x); }\n"
     "template <int N> void run(float *x) { runTest<char, N>(x); runTest<float, N>(x); }\n"
     "int main() { run<128>(0); run<2048>(0); }", (64, 1024)),
    # A default, on the definition or on a forward declaration; an explicit instantiation.
    ("template <int B = 96> void run(float *x) { k<<<1, B>>>(x); }\nvoid g(float *x) { run<>(x); run(x); }", (96,)),
    ("template <typename T, int B = 64> void run(T *x);\ntemplate <typename T, int B> void run(T *x) "
     "{ k<<<1, B>>>(x); }\nvoid g(float *x) { run<float>(x); run<float, 512>(x); }", (64, 512)),
    ("template <int B> void run(float *x) { k<<<1, B>>>(x); }\ntemplate void run<320>(float *);\n"
     "void g(float *x) { run<64>(x); }", (64, 320)),
    # A type argument deduced from the call's arguments is not one the launch reads.
    ("template <int B, typename T> void run(T *x) { k<<<1, B>>>(x); }\nvoid g(float *x) { run<64>(x); }", (64,)),
    ("namespace ns { template <int B> void run(float *x) { k<<<1, B>>>(x); } }\n"
     "void g(float *x) { ns::run<192>(x); }", (192,)),
])
def test_a_template_argument_is_known_when_every_instantiation_gives_a_constant(source, values) -> None:
    assert _templated(source) == (values, "")


@pytest.mark.parametrize("source, path, reason", [
    ("template <int B> void run(float *x) { k<<<1, B>>>(x); }\nvoid g(float *x) { run<64>(x); }", "t.cuh",
     "run is defined in a header (t.cuh), which files cu2hip does not see may include and call it with other "
     "arguments"),
    ("template <int B> void run(float *x) { k<<<1, B>>>(x); }\n"
     "void g(float *x) { run<64>(x); void (*p)(float *) = &run<1024>; p(x); }", "",
     "run is named at line 7 other than in a call or explicit instantiation cu2hip reads ('&run<1024>'): an "
     "instantiation there is not seen"),
    ("template <int B> void run(float *x) { k<<<1, B>>>(x); }\n#define RUN(n) run<n>(x)\n"
     "void g(float *x) { run<64>(x); RUN(1024); }", "", "the macro RUN names run: what its uses instantiate is not "
     "read"),
    ("template <int B> void run(int (&a)[B], float *x) { k<<<1, B>>>(x); }\n"
     "void g(float *x) { int a[512]; run<64>(a, x); run(a, x); }", "",
     "the call of run at line 7 does not write it (its arguments deduce it, or it has no default)"),
    ("template <int B, int... R> void run(float *x) { k<<<1, B>>>(x); }\nvoid g(float *x) { run<64>(x); }", "",
     "run has a parameter pack or a template template parameter"),
    ("struct S { template <int B> void run(float *x) { k<<<1, B>>>(x); } };\n"
     "void g(S s, float *x) { s.run<64>(x); }", "",
     "run is named at line 7 other than in a call or explicit instantiation cu2hip reads ('s.run<64>'): an "
     "instantiation there is not seen"),
    ("template <int B> void run(float *x) { k<<<1, B>>>(x); }\nvoid g(float *x) {}", "",
     "this file never calls run"),
    ("template <int B> void run(float *x) { k<<<1, B>>>(x); }\nvoid g(float *x) { run<64>(x); run(x); }", "",
     "the call of run at line 7 does not write it (its arguments deduce it, or it has no default)"),
])
def test_a_template_argument_is_unknown_where_an_instantiation_may_be_unseen(source, path, reason) -> None:
    values, why = _templated(source, path)
    assert values == ()
    assert why == f"'B' is a template parameter of run, whose instantiations are not all known: {reason}"


def test_a_template_of_a_file_another_includes_is_not_read_from_its_own_calls(tmp_path) -> None:
    # HeCBench's lud includes lud_kernels.cu: the includer may call its templates too.
    source = (TEMPLATES + "template <int B> void run(float *x) { k<<<1, B>>>(x); }\n"
              "void g(float *x) { run<64>(x); }\n").encode()
    kernels, main = tmp_path / "kernels.cu", tmp_path / "main.cu"
    main.write_bytes(b'#include "kernels.cu"\n')
    parsed = parse_file(source)
    headers = LocalHeaders(str(kernels), {os.path.realpath(kernels): source})
    value = HostValues(parsed, headers=headers).block_size(build_ir("kernels.cu", parsed).launches[0])
    assert value.reason == ("'B' is a template parameter of run, whose instantiations are not all known: run is "
                            "defined in kernels.cu, which another file includes: its calls there may give other "
                            "arguments")
    alone = LocalHeaders(str(kernels), {})
    assert HostValues(parsed, headers=alone).block_size(build_ir("kernels.cu", parsed).launches[0]).values == (64,)


@pytest.mark.parametrize("body, reason", [
    ("k<<<1, bs>>>(x);", "'bs' is a parameter of f: its value comes from the caller"),
    ("int t = 64; t *= 2; k<<<1, t>>>(x);", "'t' may be written at run time in f: 't' is assigned (*=) at line 14"),
    ("int t = 64; int *p = &t; k<<<1, t>>>(x);",
     "'t' may be written at run time in f: the address of 't' is taken: it may be written through it at line 14"),
    ("const int t = bs * 2; k<<<1, t>>>(x);",
     "'t' depends on a value known at run time ('bs' is a parameter of f: its value comes from the caller)"),
    ("k<<<1, threads()>>>(x);", "'threads()' is a call: its value is known at run time"),
    ("k<<<1, NOWHERE>>>(x);", "'NOWHERE' is not declared in this file"),
    ("k<<<1, WHO_KNOWS(3)>>>(x);", "'WHO_KNOWS(3)' is a call: its value is known at run time"),
    ("k<<<1, 256 / (BLOCK - 128)>>>(x);", "a division by zero"),
    ("k<<<1, sizeof(Mine)>>>(x);", "the size of 'Mine' is not known here"),
    ("unsigned lt[2] = {16, 16}; dim3 b(lt[0], lt[1]); k<<<1, b>>>(x);",
     "'lt[0]' is not a constant expression cu2hip can evaluate"),
    ("dim3 b(BLOCK*bs); k<<<1, b>>>(x);", "'bs' is a parameter of f: its value comes from the caller"),
])
def test_block_sizes_known_only_at_run_time_say_why(body, reason) -> None:
    assert _block(body) == ((), reason)


def _translate(source: str, options: Options = HIP):
    result = translate("t.cu", source.encode(), options)
    return result.output.decode(), [d.format() for d in result.diagnostics]


def test_a_kernel_is_bounded_by_its_largest_launch_of_every_kind() -> None:
    source = """#include <hip/hip_runtime.h>
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void f(float *x) {
    k<<<1, 64>>>(x);
    hipLaunchKernelGGL(k, dim3(1), dim3(128), 0, 0, x);
    void *args[] = {&x};
    hipLaunchKernel((const void *)k, dim3(1), dim3(96), args, 0, 0);
}
"""
    output, diagnostics = _translate(source)
    assert output == source.replace("void k(", "void __launch_bounds__(128) k(")
    assert diagnostics == []
    assert _translate(output) == (output, [])           # a second run has nothing to do


def test_a_launch_of_unknown_size_or_a_kernel_used_as_a_value_leaves_the_kernel_unbounded() -> None:
    source = """__global__ void k(float *x) { x[threadIdx.x] = 0; }
__global__ void j(float *x) { x[threadIdx.x] = 0; }
void (*saved)(float *) = j;
void f(float *x, int threads) {
    k<<<1, 64>>>(x);
    k<<<1, threads>>>(x);
    j<<<1, 64>>>(x);
}
"""
    output, diagnostics = _translate(source)
    assert output == "#include <hip/hip_runtime.h>\n" + source
    assert diagnostics == [
        "t.cu:1:17: warning: k is not bounded: at t.cu:6:5, 'threads' is a parameter of f: its value comes from "
        "the caller [L002]",
        "t.cu:2:17: warning: j is not bounded: at t.cu:3:26, j is used as a value here (passed to a call or "
        "stored): the launches through it cannot be counted [L002]"]


def test_a_dim3_of_a_product_of_macros_bounds_its_kernel() -> None:
    """`dim3 thr(NTX*NTY);` is a function declaration to tree-sitter (a parameter `NTX *NTY`):
    the launch's block was "'thr' is not declared in this file" (L002)."""
    source = """#include <hip/hip_runtime.h>
#define NTX 16
#define NTY 16
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void f(float *x, int n) {
    dim3 thr(NTX*NTY);
    dim3 blk(n / (NTX*NTY));
    k<<<blk, thr>>>(x);
}
"""
    output, diagnostics = _translate(source)
    assert output == source.replace("void k(", "void __launch_bounds__(256) k(")
    assert diagnostics == []



KERNEL = "__global__ void k(float *x) {}\n"


@pytest.mark.parametrize("macros, values", [
    ("#ifdef BIG\n#define BS 1024\n#else\n#define BS 128\n#endif\n", (128, 1024)),
    ("#if defined(A)\n#define BS 64\n#elif defined(B)\n#define BS (2 * 64)\n#else\n#define BS 256\n#endif\n",
     (64, 128, 256)),
    # Nested: each branch defines it on every path.
    ("#if A\n#define BS 64\n#else\n#  if B\n#    define BS 128\n#  else\n#    define BS 512\n#  endif\n#endif\n",
     (64, 128, 512)),
    # An include guard (or any #if) around them all: the branch that holds them is covered.
    ("#ifndef CONFIG_H\n#define CONFIG_H\n#ifdef WIDE\n#define BS 512\n#else\n#define BS 256\n#endif\n#endif\n",
     (256, 512)),
    ("#if !defined(CONFIG_H)\n#define CONFIG_H\n#ifdef WIDE // the wide build\n#define BS 512 /* wide */\n#else\n"
     "#define BS 256\n#endif\n#endif\n", (256, 512)),
    # A macro of macros with alternatives.
    ("#ifdef A\n#define WARPS 2\n#else\n#define WARPS 8\n#endif\n#define BS (WARPS * 32)\n", (64, 256)),
])
def test_a_macro_defined_in_every_branch_of_an_if_is_each_of_its_definitions(macros, values) -> None:
    assert _block("k<<<1, BS>>>(x);", macros + KERNEL) == (values, "")


@pytest.mark.parametrize("macros, reason", [
    # A branch with no #else: there BS comes from the compile line.
    ("#if A\n#define BS 1024\n#elif B\n#define BS 128\n#endif\n", "some path through them defines none"),
    ("#if A\n#define BS 64\n#else\n#  if B\n#    define BS 128\n#  endif\n#endif\n", "defines none"),
    # An #ifdef without #else around them all (not an include guard): without USE_CUDA, BS may be a -D.
    ("#ifdef USE_CUDA\n#ifdef WIDE\n#define BS 512\n#else\n#define BS 128\n#endif\n#endif\n", "defines none"),
    # A directive in a comment is none: the #else, or the second definition, is commented out.
    ("#ifdef A\n#define BS 64\n/*\n#else\n*/\n#define BS 128\n#endif\n", "defines none"),
    ("#ifdef A\n#define BS 64\n#else\n/*\n#define BS 128\n*/\n#endif\n", "defines none"),
    # A definition that is the compile line's value.
    ("#ifdef RD_WG_SIZE\n#define BS RD_WG_SIZE\n#else\n#define BS 16\n#endif\n",
     "its #define at line 2 ('RD_WG_SIZE') is not a constant: 'RD_WG_SIZE' is not declared in this file"),
    ("#ifdef A\n#define BS 64\n#else\n#define BS threads()\n#endif\n", "('threads()') is not a constant"),
    # Under a test of the name itself: -DBS=... skips them.
    ("#ifndef BS\n#ifdef A\n#define BS 64\n#else\n#define BS 128\n#endif\n#endif\n",
     "its #define at line 3 is under '#ifndef BS', which tests it"),
    ("#ifdef A\n#define BS 64\n#elif !defined(BS)\n#define BS 128\n#else\n#define BS 256\n#endif\n",
     "is under '#elif !defined(BS)', which tests it"),
    ("#define BS 128\n#ifdef BIG\n#undef BS\n#define BS 1024\n#endif\n", "#undef'd"),
    ("#ifdef A\n#define BS(x) x\n#else\n#define BS 64\n#endif\n", "BS(x) is function-like"),
])
def test_a_macro_of_several_definitions_that_may_not_be_one_of_them_is_unknown(macros, reason) -> None:
    values, why = _block("k<<<1, BS>>>(x);", macros + KERNEL)
    assert values == ()
    assert "'BS' is a macro with several" in why and reason in why


def test_the_bound_of_several_values_is_the_largest_and_says_where_they_come_from() -> None:
    source = """#include <hip/hip_runtime.h>
#ifdef BIG
#define BS 1024
#else
#define BS 128
#endif
__global__ void k(float *x) { x[threadIdx.x] = 0; }
__global__ void j(float *x) { x[threadIdx.x] = 0; }
void f(float *x, int n) {
    k<<<1, BS>>>(x);
    int threads = 256;
    if (n < 1000) threads = 64;
    j<<<1, threads>>>(x);
}
"""
    result = translate("t.cu", source.encode(), HIP)
    assert result.output.decode() == source.replace("void k(", "void __launch_bounds__(1024) k(").replace(
        "void j(", "void __launch_bounds__(256) j(")
    reasons = sorted(f.reason for f in result.applied if f.rule == "L001")
    assert reasons == [
        "j is launched with at most 256 threads per block (t.cu:13:5); at t.cu:13:5, 'threads' is 64 or 256 (its "
        "initializer and its assignment at line 12) (the bound is the largest): without bounds HIP compiles it for 1024",
        "k is launched with at most 1024 threads per block (t.cu:10:5); at t.cu:10:5, BS is one of its #define's under "
        "#if branches (1024 at line 3, 128 at line 5), whichever the build compiles (the bound is the largest): "
        "without bounds HIP compiles it for 1024"]
    assert [d.format() for d in result.diagnostics] == []


def test_a_dim3_written_member_by_member_bounds_its_kernel() -> None:
    """HeCBench's shape (jaccard): `dim3 block; block.x = ...;` and a grid of `block.x`
    (issue 28): the block is known, the kernel bounded; a block written again after
    its first launch and launched again bounds the kernel by the larger."""
    source = """#include <hip/hip_runtime.h>
#define BLOCK 64
__global__ void k(float *x) { x[threadIdx.x] = 0; }
__global__ void j(float *x) { x[threadIdx.x] = 0; }
__global__ void w(float *x) { x[threadIdx.x] = 0; }
void f(float *x, int n) {
    dim3 block; block.x = 32; block.y = 8; block.z = 1;
    dim3 grid; grid.x = (n + block.x - 1) / block.x;
    k<<<grid, block>>>(x);
    dim3 threads(1, 1, 1);
    threads.x = BLOCK;
    j<<<1, threads>>>(x);
    threads.x = 2 * BLOCK;
    j<<<1, threads>>>(x);
    dim3 wide;
    if (n > 1000) wide.x = 512;
    w<<<1, wide>>>(x);
}
"""
    result = translate("t.cu", source.encode(), HIP)
    assert result.output.decode() == source.replace("void k(", "void __launch_bounds__(256) k(").replace(
        "void j(", "void __launch_bounds__(128) j(").replace("void w(", "void __launch_bounds__(512) w(")
    reasons = sorted(f.reason for f in result.applied if f.rule == "L001")
    assert reasons == [
        "j is launched with at most 128 threads per block (t.cu:12:5, t.cu:14:5): without bounds HIP compiles it "
        "for 1024",
        "k is launched with at most 256 threads per block (t.cu:9:5): without bounds HIP compiles it for 1024",
        "w is launched with at most 512 threads per block (t.cu:17:5); at t.cu:17:5, 'wide.x' is 1 or 512 (its "
        "declaration and its assignment at line 16, one of which a path to the launch may skip or repeat) (the bound "
        "is the largest): without bounds HIP compiles it for 1024"]
    assert [d.format() for d in result.diagnostics] == []


@pytest.mark.parametrize("body, reason", [
    ("dim3 b; b.x = 64; dim3 *p = &b; p->x = 1024;", "the address of 'b' is taken: it may be written through it"),
    ("dim3 b; b.x = 64; dims(b);", "passed to dims, whose parameter 1 is a non-const reference"),
    ("dim3 b; b.x = 64; b.x += 1;", "'b.x' is assigned (+=)"),
    ("dim3 b; b.x = n;", "it is assigned 'n' at line 3, a value known at run time"),
])
def test_a_dim3_member_written_another_way_leaves_the_kernel_unbounded(body, reason) -> None:
    source = ("__global__ void k(float *x) { x[threadIdx.x] = 0; }\nvoid dims(dim3 &b);\n"
              "void f(float *x, int n) { " + body + " k<<<1, b>>>(x); }\n")
    output, diagnostics = _translate(source)
    assert "__launch_bounds__" not in output
    assert len(diagnostics) == 1 and "k is not bounded" in diagnostics[0] and reason in diagnostics[0], diagnostics


def test_hecbench_jaccards_dim3s_written_between_launches_bound_each_kernel() -> None:
    # jaccard_weight's shape (its four L002 before issue 28): one pair of dim3s written
    # member by member before each launch, the grid's z from a count known at run time.
    source = """#define CUDA_MAX_BLOCKS 65535
__global__ void row_sum(int n, float *x) { x[threadIdx.y * blockDim.x + threadIdx.x] = 0; }
__global__ void jis(int n, float *x) { x[threadIdx.z * blockDim.x + threadIdx.x] = 0; }
static void jaccard_weight(int n, float *x) {
  dim3 nthreads, nblocks;
  int y = 4;
  nthreads.x = 64 / y;
  nthreads.y = y;
  nthreads.z = 1;
  nblocks.x = 1;
  nblocks.y = (n + nthreads.y - 1) / nthreads.y;
  nblocks.z = 1;
  row_sum<<<nblocks, nthreads>>>(n, x);
  nthreads.x = 32 / y;
  nthreads.y = y;
  nthreads.z = 8;
  nblocks.x = 1;
  nblocks.y = 1;
  nblocks.z = min((n + nthreads.z - 1) / nthreads.z, CUDA_MAX_BLOCKS);
  jis<<<nblocks, nthreads>>>(n, x);
}
"""
    output, diagnostics = _translate(source)
    assert output == "#include <hip/hip_runtime.h>\n" + source.replace(
        "void row_sum(", "void __launch_bounds__(64) row_sum(").replace("void jis(", "void __launch_bounds__(256) jis(")
    assert diagnostics == []


@pytest.mark.parametrize("source", [
    # A local of the kernel's own name (HeCBench's entropy).
    "__global__ void k(float *e) { float k = 0; e[threadIdx.x] = k; }\nvoid f(float *x) { k<<<1, 256>>>(x); }\n",
    # The kernel's own parameter of its name (HeCBench's lb_keogh).
    "__global__ void k(const float *x, float *__restrict__ k) { k[threadIdx.x] = x[0]; }\n"
    "void f(float *x) { k<<<1, 256>>>(x, x); }\n",
    # A parameter of the kernel's name, in another function's definition and a declaration.
    "__global__ void k(float *e) { e[threadIdx.x] = 0; }\nvoid g(float *__restrict__ k);\n"
    "void g(float *__restrict__ k) { k[0] = 1; }\nvoid f(float *x) { k<<<1, 256>>>(x); g(x); }\n",
    # A for's, a lambda's, a range-for's and a condition's.
    "__global__ void k(float *e) { e[threadIdx.x] = 0; }\nvoid f(float *x, int *v) {\n"
    "    for (int k = 0; k < 2; k++) x[k] = k;\n    auto l = [](int k) { return k; };\n"
    "    for (int k : {1, 2}) x[k] = l(k);\n    if (int k = v[0]) x[k] = 0;\n    k<<<1, 256>>>(x);\n}\n",
])
def test_a_local_or_parameter_of_a_kernels_name_is_not_the_kernel(source) -> None:
    """A declaration in the kernel's body or a parameter list shadows the kernel: its uses
    are not the kernel used as a value (L002 was "k is used as a value here")."""
    output, diagnostics = _translate("#include <hip/hip_runtime.h>\n" + source)
    assert "__global__ void __launch_bounds__(256) k(" in output
    assert diagnostics == []


def test_the_kernel_used_where_no_declaration_shadows_it_is_still_a_value() -> None:
    source = """#include <hip/hip_runtime.h>
__global__ void k(float *e) { e[threadIdx.x] = 0; }
void g(int k) { }
void f(float *x) {
    { float k = 0; x[0] = k; }
    void *p = (void *)k;
    k<<<1, 256>>>(x);
}
"""
    output, diagnostics = _translate(source)
    assert output == source
    assert diagnostics == ["t.cu:2:17: warning: k is not bounded: at t.cu:6:23, k is used as a value here (passed "
                           "to a call or stored): the launches through it cannot be counted [L002]"]


@pytest.mark.parametrize("bounds, converted, diagnostic", [
    ("(128, 8)", "(128, 4 /* waves per EU: CUDA's 8 blocks per SM */)",
     "k: 8 blocks of 128 threads per SM are 4 waves per SIMD on CDNA; HIP reads the argument as waves per EU"),
    ("(256, 2)", "(256, 2 /* waves per EU: CUDA's 2 blocks per SM */)",
     "k: 2 blocks of 256 threads per SM are 2 waves per SIMD on CDNA; HIP reads the argument as waves per EU"),
    ("(256, 1)", "(256)", "k: 1 blocks of 256 threads per SM is at most 1 wave per SIMD on CDNA: no constraint, "
                          "dropped"),
    ("(MAXT, MINB)", "(MAXT)", "k: the minimum of MINB blocks per SM is dropped ('MAXT' is not declared in this "
                               "file): HIP would read it as a minimum of waves per EU"),
])
def test_cudas_minimum_blocks_per_sm_becomes_hips_waves_per_eu(bounds, converted, diagnostic) -> None:
    source = f"__global__ void __launch_bounds__{bounds} k(float *x) {{ x[threadIdx.x] = 0; }}\n"
    result = translate("t.cu", source.encode(), HIP)
    assert result.output.decode() == "#include <hip/hip_runtime.h>\n" + source.replace(bounds, converted)
    assert [f.reason for f in result.applied if f.rule == "L004"] == [diagnostic]
    again = translate("t.cu", result.output, HIP)
    assert again.output == result.output
    # CUDA keeps CUDA's meaning.
    assert translate("t.cu", source.encode(), dataclasses.replace(HIP, target="cuda")).output == source.encode()


def test_a_tree_bounds_a_header_kernel_by_every_file_and_says_which_kernels_no_file_launches(tmp_path, capsys) -> None:
    project = ROOT / "tests" / "projects" / "two_tu"
    out = tmp_path / "hip"
    assert main(["translate", str(project), "-o", str(out), "--rocm-version", "5.2"]) == 0
    header = (out / "kernels.cuh").read_text()
    assert "__global__ void __launch_bounds__(256) scale(float *x, float s, int n) {" in header
    assert "__global__ void unused(float *x)" in header
    err = capsys.readouterr().err
    assert f"{project / 'kernels.cuh'}:8:17: note: unused is launched from no translated file: not bounded (HIP " \
           "compiles it for blocks of 1024 threads) [L003]" in err
    # The header alone knows none of its launches: nothing is bounded, nothing said.
    alone = translate("kernels.cuh", (project / "kernels.cuh").read_bytes(), HIP)
    assert b"__launch_bounds__" not in alone.output and not alone.diagnostics


def test_a_header_kernel_counts_only_the_files_that_include_it(tmp_path, capsys) -> None:
    """Two programs in one tree, each with a kernel `k`: the header's is launched with 128
    threads by the file that includes it; the other program's own `k`, with 1024, is
    another kernel (counting it would bound one by the other, too small for one of them)."""
    project = tmp_path / "src"
    (project / "one").mkdir(parents=True)
    (project / "two").mkdir()
    kernel = "__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
    (project / "one" / "k.cuh").write_text(kernel)
    (project / "one" / "a.cu").write_text('#include "k.cuh"\nvoid a(float *x) { k<<<1, 128>>>(x); }\n')
    (project / "two" / "b.cu").write_text(kernel + "void b(float *x) { k<<<1, 1024>>>(x); }\n")
    out = tmp_path / "hip"
    assert main(["translate", str(project), "-o", str(out), "--rocm-version", "5.2", "--no-rebalance"]) == 0
    assert (out / "one" / "k.cuh").read_text() == \
        "#include <hip/hip_runtime.h>\n" + kernel.replace("void k(", "void __launch_bounds__(128) k(")
    assert (out / "two" / "b.cu").read_text().startswith(
        "#include <hip/hip_runtime.h>\n" + kernel.replace("void k(", "void __launch_bounds__(1024) k("))
    assert "L002" not in capsys.readouterr().err


def test_attributes_hip_lacks_are_errors_at_the_attribute() -> None:
    source = "__global__ void __maxnreg__(32) k(float *x) { x[threadIdx.x] = 0; }\n" \
             "__global__ void __cluster_dims__(2, 1, 1) c(float *x) { x[threadIdx.x] = 0; }\n" \
             "void f(float *x) { k<<<1, 32>>>(x); c<<<2, 32>>>(x); }\n"
    output, diagnostics = _translate(source)
    assert diagnostics == [
        "t.cu:1:17: error: __maxnreg__(32) has no HIP equivalent; see `cu2hip rules L005` [L005]",
        "t.cu:2:17: error: __cluster_dims__(2, 1, 1) has no HIP equivalent; see `cu2hip rules L006` [L006]"]
    # The kernels parse as kernels (the attributes are read as blanks) and are bounded.
    assert "__maxnreg__(32) __launch_bounds__(32) k(" in output
    assert "__cluster_dims__(2, 1, 1) __launch_bounds__(32) c(" in output


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_register_heavy_kernels_spill_without_bounds_and_not_with_them(tmp_path) -> None:
    source = ROOT / "corpus" / "kernels" / "register_heavy.cu"
    figures = {}
    for name, options in (("without", dataclasses.replace(HIP, ignore=("L",))), ("with", HIP)):
        path = tmp_path / f"{name}.hip"
        path.write_bytes(translate(source.name, source.read_bytes(), options).output)
        result, kernels = toolchain.hip_kernel_resources(path)
        assert result.ok, result.output[-3000:]
        figures[name] = {k.kernel: k for k in kernels}
    bounded = [k for k in figures["with"] if "runtime" not in k]
    assert len(bounded) == 5
    for kernel in bounded:
        before, after = figures["without"][kernel], figures["with"][kernel]
        assert before.vgprs == 128 and before.vgpr_spills > 0 and before.scratch_bytes > 0, before
        assert after.vgprs > 128 and after.vgpr_spills == 0 and after.scratch_bytes == 0, after
    (runtime,) = [k for k in figures["with"] if "runtime" in k]
    assert figures["with"][runtime].vgpr_spills > 0      # left as it was: diagnosed, not guessed


def test_report_lists_every_kernel_with_its_launches_and_bounds(tmp_path, capsys) -> None:
    import json
    project = ROOT / "tests" / "projects" / "two_tu"
    assert main(["report", str(project), "--format", "json", "--no-compile", "--rocm-version", "5.2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(k["file"].rsplit("/", 1)[-1], k["line"], k["kernel"], k["launch_sizes"], k["launches"], k["bounds"])
            for k in doc["kernels"]] == [("kernels.cuh", 3, "scale", [128, 256], 2, "256"),
                                         ("kernels.cuh", 8, "unused", [], 0, None)]
    assert doc["missing"] == ["--no-compile: no compiler figures"]
    assert [f["rule"] for f in doc["topics"]["launch-bounds"]] == ["L001", "L003"]


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc is not installed (apt-get install hipcc)")
def test_report_gives_hipccs_figures_with_and_without_the_passes(capsys) -> None:
    import json
    source = ROOT / "corpus" / "kernels" / "register_heavy.cu"
    assert main(["report", str(source), "--format", "json", "--rocm-version", "5.2", "-j", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    by_name = {k["kernel"]: k for k in doc["kernels"]}
    assert doc["missing"] == [] and len(by_name) == 6
    literal, runtime = by_name["heavy_literal"], by_name["heavy_runtime"]
    assert literal["bounds"] == "256" and literal["launch_sizes"] == [256]
    assert literal["vgprs"] > 128 and literal["spills"] == 0 and literal["scratch_bytes"] == 0
    assert literal["without"]["vgprs"] == 128 and literal["without"]["vgpr_spills"] > 0
    assert runtime["bounds"] is None and runtime["unknown"].endswith("its value comes from the caller)")
    assert runtime["vgprs"] == 128 and runtime["spills"] > 0


def test_report_html_is_one_page_with_a_chart_per_figure(capsys) -> None:
    source = ROOT / "tests" / "projects" / "two_tu"
    assert main(["report", str(source), "--format", "html", "--no-compile", "--rocm-version", "5.2"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<h2>VGPRs per kernel</h2>\n<p>VGPRs per kernel: no figures.</p>" in page    # --no-compile
    assert "<td>scale</td><td>128, 256</td><td>256</td>" in page
    assert "<li>--no-compile: no compiler figures</li>" in page


def _tree_notes(tmp_path, capsys, name: str, source: str, *options: str) -> tuple[list[str], list[str], Path]:
    """Translates `source` as a one-file tree (the command gathers the tree's launches
    first, so L003 is said): (its L003 lines, its other diagnostics' codes, the output)."""
    tree = tmp_path / "src"
    tree.mkdir()
    (tree / name).write_text(source)
    out = tmp_path / "hip"
    assert main(["translate", str(tree), "-o", str(out), "--rocm-version", "5.2", "--no-cache", "-j", "1",
                 *options]) == 0
    lines = capsys.readouterr().err.splitlines()
    codes = [line.rsplit("[", 1)[-1].rstrip("]") for line in lines if line.endswith("]")]
    return [line for line in lines if line.endswith("[L003]")], codes, out / name


_NOT_LAUNCHED = "{path}:{line}:17: note: {kernel} is launched from no translated file: not bounded (HIP compiles " \
                "it for blocks of 1024 threads) [L003]"
_TWICE = "__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }\n"


def test_a_kernel_no_file_launches_is_said_so_when_a_pinned_buffer_rewrite_takes_the_first_round(tmp_path,
                                                                                                  capsys) -> None:
    # R007 (a restructuring rewrite) takes round 0, so the launch-bounds pass first runs in
    # round 1: the note was said in round 0 alone, so this file never got it (jaccard).
    source = ("#include <cstdlib>\n__global__ void unused_kernel(float* x) { x[threadIdx.x] = 1; }\n" + _TWICE +
              "int main() {\n    const int n = 1 << 20;\n    float* h = (float*)malloc(n * sizeof(float));\n"
              "    float* d;\n    cudaMalloc(&d, n * sizeof(float));\n    for (int it = 0; it < 10; ++it) {\n"
              "        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);\n"
              "        twice<<<(n + 255) / 256, 256>>>(d, n);\n    }\n    free(h);\n    return 0;\n}\n")
    notes, codes, out = _tree_notes(tmp_path, capsys, "main.cu", source)
    assert "R007" in codes
    assert notes == [_NOT_LAUNCHED.format(path=tmp_path / "src" / "main.cu", line=2, kernel="unused_kernel")]
    # The launched kernel is bounded, the other is not.
    assert "__global__ void __launch_bounds__(256) twice(" in out.read_text()
    assert "__global__ void unused_kernel(" in out.read_text()


def test_a_kernel_no_file_launches_is_said_so_when_a_graph_capture_takes_the_first_round(tmp_path, capsys) -> None:
    # R012 copies the loop's launch into the capture and its fallback: the kernel it launches
    # is launched (no L003); the one nothing launches gets its note once, at its place in
    # the input (after the rewritten loop: the round's offsets are mapped back).
    source = (_TWICE + "void f(float* d, int n, int repeat) {\n    for (int i = 0; i < repeat; i++) {\n"
              "        twice<<<(n + 255) / 256, 256>>>(d, n);\n    }\n}\n"
              "__global__ void spare(float* x) { x[threadIdx.x] = 0; }\n")
    notes, codes, out = _tree_notes(tmp_path, capsys, "graph.cu", source)
    assert "R012" in codes
    assert notes == [_NOT_LAUNCHED.format(path=tmp_path / "src" / "graph.cu", line=7, kernel="spare")]
    assert "__global__ void __launch_bounds__(256) twice(" in out.read_text()


def test_fusion_leaves_no_l003_on_its_fused_kernel_or_the_kernels_it_fused(tmp_path, capsys) -> None:
    # Fusion takes round 0: in round 1 the stages' launches are the fused kernel's one, so
    # the stages are launched from no file of that round's text; they are launched by the
    # input, and the fused kernel by its own launch: neither is "not launched". A kernel
    # the input never launches still gets its note, once.
    source = (ROOT / "corpus" / "fusion" / "chain2_scale_add.cu").read_text().replace(
        "// The pointers are __restrict__",
        "__global__ void idle(float* x) { x[threadIdx.x] = 0; }\n\n// The pointers are __restrict__", 1)
    line = source.splitlines().index("__global__ void idle(float* x) { x[threadIdx.x] = 0; }") + 1
    notes, codes, out = _tree_notes(tmp_path, capsys, "chain.cu", source)
    assert "F001" in codes
    assert notes == [_NOT_LAUNCHED.format(path=tmp_path / "src" / "chain.cu", line=line, kernel="idle")]
    assert "__global__ void __launch_bounds__(256) fused_scale_add(" in out.read_text()


def test_a_fused_chain_says_no_l003_at_all(tmp_path, capsys) -> None:
    source = (ROOT / "corpus" / "fusion" / "chain3_host_arith.cu").read_text()
    notes, codes, _ = _tree_notes(tmp_path, capsys, "chain.cu", source)
    assert "F001" in codes and notes == []
