"""Tests for translator.ir.build_ir: kernels, launch sites, launch sequences, sync
points, and the API uses that translate() records.

Every span is checked by slicing the source: an Expr's text must be exactly the bytes
its span covers, and the span must sit where the source says.
"""

from __future__ import annotations

import pytest

from translator.frontend import parse_file
from translator.ir import Expr, Module, Param, SharedDecl, build_ir, module_of
from translator.pipeline import translate


def ir(src: bytes, path: str = "x.cu") -> Module:
    return build_ir(path, parse_file(src))


def at(src: bytes, text: bytes, nth: int = 0) -> tuple[int, int]:
    """The span of the nth occurrence of `text` in `src`."""
    pos = -1
    for _ in range(nth + 1):
        pos = src.index(text, pos + 1)
    return pos, pos + len(text)


def sub(src: bytes, context: bytes, inner: bytes, nth: int = 0) -> tuple[int, int]:
    """The span of `inner` inside the nth occurrence of `context` (for text that is not unique)."""
    start = at(src, context, nth)[0] + context.index(inner)
    return start, start + len(inner)


def expr(src: bytes, text: bytes, nth: int = 0) -> Expr:
    return Expr(text.decode(), at(src, text, nth))


def check_spans(src: bytes, module: Module) -> None:
    """Every Expr in the module is the exact bytes of its span."""
    exprs = []
    for k in module.kernels:
        exprs += [*k.launch_bounds, *k.index_uses, *k.warp_ops, *k.barriers, *k.atomics]
    for s in module.launches:
        exprs += [s.kernel_expr, s.grid, s.block, *s.args]
        exprs += [e for e in (s.shared_mem, s.stream) if e is not None]
    for e in exprs:
        assert src[e.span[0]:e.span[1]].decode() == e.text, e


SRC = b"""#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <typename T, int BLOCK>
__global__ void __launch_bounds__(256, 2) scale(const T* __restrict__ in, T* __restrict__ out, int n, T alpha)
{
    __shared__ float tile[BLOCK];
    extern __shared__ float dyn[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = alpha * in[i];
    }
    __syncthreads();
}

__global__ void reduce(float *acc, const float *x, int n)
{
    cg::thread_block block = cg::this_thread_block();
    float v = x[threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 16);
    int lane = threadIdx.x % warpSize;
    block.sync();
    if (lane == 0) atomicAdd(acc, v);
    acc[1] += v;
    acc[2]++;
}

__global__ void proto(int *p);

void host(float *a, float *b, int n, cudaStream_t s)
{
    float *d;
    cudaMalloc(&d, n * sizeof(float));
    scale<float, 256><<<(n + 255) / 256, 256, 0, s>>>(a, b, n, 2.0f);
    reduce<<<1, 32>>>(d, a, n);
    cudaDeviceSynchronize();
    cudaMemcpy(b, d, n, cudaMemcpyDeviceToHost);
}
"""


@pytest.fixture(scope="module")
def module() -> Module:
    return ir(SRC, "k.cu")


def test_module_basics(module):
    assert module.path == "k.cu"
    assert [k.name for k in module.kernels] == ["scale", "reduce", "proto"]
    assert {name: len(ks) for name, ks in module.kernels_by_name.items()} == {"scale": 1, "reduce": 1, "proto": 1}
    assert module.api_uses == ()       # build_ir alone: API uses come from the scan
    check_spans(SRC, module)


def test_template_kernel_header(module):
    k = module.kernels[0]
    assert k.template_params == ("typename T", "int BLOCK")
    assert SRC[k.span[0]:k.span[1]].startswith(b"__global__ void __launch_bounds__(256, 2) scale(")
    assert SRC[k.span[0]:k.span[1]].endswith(b"__syncthreads();\n}")
    assert k.name_span == sub(SRC, b"scale(", b"scale")
    assert k.launch_bounds == (Expr("256", sub(SRC, b"(256, 2)", b"256")), Expr("2", sub(SRC, b"2) scale", b"2")))
    assert k.launch_bounds_span == at(SRC, b"__launch_bounds__(256, 2)")
    assert SRC[k.body_span[0]:k.body_span[1]].startswith(b"{\n    __shared__ float tile[BLOCK];")
    assert k.in_macro is False and k.clean is True


def test_params_types_pointers_qualifiers(module):
    scale, reduce, proto = module.kernels
    assert [(p.name, p.type_text, p.is_pointer) for p in scale.params] == [
        ("in", "T", True), ("out", "T", True), ("n", "int", False), ("alpha", "T", False)]
    assert scale.params[0].qualifiers[0] == "const"
    assert scale.params[0].span == at(SRC, b"const T* __restrict__ in")
    assert scale.params[3].span == at(SRC, b"T alpha")
    assert reduce.params == (
        Param("acc", "float", (), True, at(SRC, b"float *acc")),
        Param("x", "float", ("const",), True, at(SRC, b"const float *x")),
        Param("n", "int", (), False, sub(SRC, b"int n)", b"int n")),
    )
    assert proto.params == (Param("p", "int", (), True, at(SRC, b"int *p")),)


def test_restrict_is_a_param_qualifier(module):
    scale = module.kernels[0]
    assert scale.params[0].qualifiers == ("const", "__restrict__")
    assert scale.params[1].qualifiers == ("__restrict__",)


def test_array_and_double_pointer_params():
    src = b"__global__ void k(int a[], int **pp, const int c, unsigned long long x) {}\n"
    k = ir(src).kernels[0]
    assert [(p.name, p.type_text, p.is_pointer, p.qualifiers) for p in k.params] == [
        ("a", "int", True, ()), ("pp", "int", True, ()), ("c", "int", False, ("const",)),
        ("x", "unsigned long long", False, ())]


def test_reference_param_has_its_name():
    src = b"__global__ void k(float &r, int n) {}\n"
    assert [p.name for p in ir(src).kernels[0].params] == ["r", "n"]


def test_shared_declarations(module):
    scale = module.kernels[0]
    assert scale.shared == (
        SharedDecl("tile", "float", "BLOCK", False, at(SRC, b"__shared__ float tile[BLOCK];")),
        SharedDecl("dyn", "float", None, True, at(SRC, b"extern __shared__ float dyn[];")),
    )
    assert module.kernels[1].shared == ()


def test_shared_multi_dimensional_and_scalar():
    src = b"__global__ void k() {\n  __shared__ int t[32][33];\n  __shared__ int count;\n}\n"
    k = ir(src).kernels[0]
    # A 2-D array records its first dimension as written: [32][33] -> "32".
    assert [(s.name, s.type_text, s.size, s.is_extern) for s in k.shared] == [
        ("t", "int", "32", False), ("count", "int", None, False)]


def test_index_uses(module):
    scale, reduce, _ = module.kernels
    assert scale.index_uses == (expr(SRC, b"blockIdx.x"), expr(SRC, b"blockDim.x"), expr(SRC, b"threadIdx.x"))
    assert reduce.index_uses == (expr(SRC, b"threadIdx.x", 1), expr(SRC, b"threadIdx.x", 2))


def test_warp_ops_barriers_atomics(module):
    scale, reduce, proto = module.kernels
    assert scale.warp_ops == ()
    assert scale.barriers == (expr(SRC, b"__syncthreads()"),)
    assert scale.atomics == ()
    assert reduce.warp_ops == (expr(SRC, b"__shfl_down_sync(0xffffffff, v, 16)"), expr(SRC, b"warpSize"))
    assert reduce.barriers == (expr(SRC, b"block.sync()"),)
    assert reduce.atomics == (expr(SRC, b"atomicAdd(acc, v)"),)
    assert (proto.warp_ops, proto.barriers, proto.atomics, proto.index_uses) == ((), (), (), ())


def test_more_warp_ops_and_barriers():
    src = (b"__global__ void k(unsigned *m) {\n"
           b"  m[0] = __ballot_sync(~0u, 1);\n"
           b"  __syncwarp();\n"
           b"  unsigned a = __activemask();\n"
           b"  int c = __syncthreads_count(1);\n"
           b"  cg::this_grid().sync();\n"
           b"  atomicCAS(m, 0u, 1u);\n"
           b"  int w = warpSize / 2;\n"
           b"}\n")
    k = ir(src).kernels[0]
    assert [e.text for e in k.warp_ops] == ["__ballot_sync(~0u, 1)", "__syncwarp()", "__activemask()", "warpSize"]
    assert [e.text for e in k.barriers] == ["__syncthreads_count(1)", "cg::this_grid().sync()"]
    assert [e.text for e in k.atomics] == ["atomicCAS(m, 0u, 1u)"]
    check_spans(src, ir(src))


def test_cg_sync_free_function_is_a_barrier():
    src = b"__global__ void k(float *x) {\n  auto block = cg::this_thread_block();\n  cg::sync(block);\n}\n"
    assert [e.text for e in ir(src).kernels[0].barriers] == ["cg::sync(block)"]


def test_cg_tile_shuffle_is_a_warp_op():
    src = (b"__global__ void k(float *x) {\n  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
           b"  x[0] = tile.shfl_down(x[0], 16);\n}\n")
    assert [e.text for e in ir(src).kernels[0].warp_ops] == ["tile.shfl_down(x[0], 16)"]


def test_qualified_atomic_is_an_atomic():
    src = b"__global__ void k(float *x) {\n  ::atomicAdd(x, 1.0f);\n}\n"
    assert [e.text for e in ir(src).kernels[0].atomics] == ["::atomicAdd(x, 1.0f)"]


def test_prototype_is_a_kernel_without_body(module):
    proto = module.kernels[2]
    assert proto.name == "proto"
    assert proto.body_span is None
    assert SRC[proto.span[0]:proto.span[1]] == b"__global__ void proto(int *p);"
    assert proto.shared == ()


# --- launch sites ---------------------------------------------------------------------

def test_launch_sites(module):
    scale_site, reduce_site = module.launches
    assert scale_site.kernel == "scale"
    assert scale_site.kernel_expr == expr(SRC, b"scale<float, 256>")
    assert scale_site.template_args == "<float, 256>"
    assert scale_site.grid == expr(SRC, b"(n + 255) / 256")
    assert scale_site.block == Expr("256", sub(SRC, b"256, 0, s", b"256"))
    assert scale_site.shared_mem == Expr("0", sub(SRC, b"0, s>>>", b"0"))
    assert scale_site.stream == Expr("s", sub(SRC, b"s>>>", b"s"))
    call = b"scale<float, 256><<<(n + 255) / 256, 256, 0, s>>>(a, b, n, 2.0f)"
    assert scale_site.span == at(SRC, call)
    assert scale_site.config_span == at(SRC, b"<<<(n + 255) / 256, 256, 0, s>>>")
    args_at = at(SRC, b"(a, b, n, 2.0f)")[0]
    assert scale_site.args == (Expr("a", (args_at + 1, args_at + 2)), Expr("b", (args_at + 4, args_at + 5)),
                               Expr("n", (args_at + 7, args_at + 8)), Expr("2.0f", (args_at + 10, args_at + 14)))
    assert scale_site.function == "host"
    assert scale_site.statement == at(SRC, call + b";")
    assert scale_site.statement_index == 2      # after `float *d;` and the cudaMalloc call
    assert (scale_site.in_macro, scale_site.clean) == (False, True)

    assert reduce_site.kernel == "reduce"
    assert reduce_site.template_args is None
    assert reduce_site.kernel_expr == Expr("reduce", sub(SRC, b"reduce<<<", b"reduce"))
    assert (reduce_site.grid.text, reduce_site.block.text) == ("1", "32")
    assert (reduce_site.shared_mem, reduce_site.stream) == (None, None)
    assert [a.text for a in reduce_site.args] == ["d", "a", "n"]
    assert reduce_site.statement_index == 3
    assert reduce_site.config_span == at(SRC, b"<<<1, 32>>>")


def test_launch_with_config_across_lines_and_comments():
    src = (b"void h(float *p) {\n  k<<< /* grid */ g,\n      b, // block\n      0>>>(\n"
           b"      p, /* n */ 4);\n}\n")
    (site,) = ir(src).launches
    assert [e.text for e in (site.grid, site.block, site.shared_mem)] == ["g", "b", "0"]
    assert site.stream is None
    assert [a.text for a in site.args] == ["p", "4"]
    check_spans(src, ir(src))


def test_qualified_launches():
    src = b"void h(float *x) {\n  ns::k<<<1, 2>>>(x);\n  ::k2<<<1, 2>>>(x);\n}\n"
    a, b = ir(src).launches
    assert (a.kernel, a.kernel_expr.text, a.template_args) == ("ns::k", "ns::k", None)
    assert (b.kernel, b.kernel_expr.text, b.template_args) == ("::k2", "::k2", None)


def test_qualified_template_launch_separates_template_args():
    src = b"void h(float *x) {\n  ns::k<float><<<1, 2>>>(x);\n}\n"
    (site,) = ir(src).launches
    assert site.kernel == "ns::k"
    assert site.template_args == "<float>"
    assert site.kernel_expr.text == "ns::k<float>"


def test_launch_in_define_is_in_macro():
    src = b"#include <x.h>\n#define LAUNCH(n) k<<<n, 256>>>(p, n)\nvoid f() {}\n"
    (site,) = ir(src).launches
    assert site.in_macro is True
    assert site.function is None
    assert site.clean is True
    assert site.kernel == "k"
    assert site.span == at(src, b"k<<<n, 256>>>(p, n)")
    assert site.grid == Expr("n", sub(src, b"<<<n", b"n"))
    assert site.block == expr(src, b"256")
    assert [a.span for a in site.args] == [sub(src, b"(p, n)", b"p"), sub(src, b"(p, n)", b"n")]
    check_spans(src, ir(src))


def test_launch_in_define_statement_stays_in_body():
    src = b"#define LAUNCH(n) k<<<n, 256>>>(p, n)\n"
    (site,) = ir(src).launches
    assert site.statement is None or (18 <= site.statement[0] and site.statement[1] <= 37)


def test_launch_inside_error_region_is_not_clean():
    # `#if`/`#else` branches that each open a brace collapse the function into one ERROR.
    src = (b"void h(int n) {\n  #if A\n  if (n) {\n  #else\n  if (!n) {\n  #endif\n"
           b"    k<<<1, 2>>>(n);\n  }\n  x = = 3;\n  k<<<3, 4>>>(n);\n}\n")
    parsed = parse_file(src)
    assert [(s.start, s.end) for s in parsed.error_sites] == [(0, len(src) - 1)]
    sites = build_ir("x.cu", parsed).launches
    assert [(s.grid.text, s.clean) for s in sites] == [("1", False), ("3", False)]
    assert [s.span for s in sites] == [at(src, b"k<<<1, 2>>>(n)"), at(src, b"k<<<3, 4>>>(n)")]


def test_launch_next_to_small_error_stays_clean():
    src = b"void h() {\n  int x = = 1;\n  k<<<1, 2>>>(x);\n}\n"
    (site,) = ir(src).launches
    assert site.clean is True
    assert site.function == "h"
    assert site.statement_index == 1


def test_launch_with_one_config_expression_is_ignored():
    # Not a launch a pass can use: no block size.
    src = b"void h() {\n  k<<<1>>>(x);\n}\n"
    assert ir(src).launches == ()


def test_launch_statement_index_in_nested_block():
    src = (b"void h(bool c) {\n  a<<<1, 1>>>();\n  // comment\n  if (c) {\n    int z;\n    b<<<1, 1>>>(z);\n"
           b"  }\n  if (c) c_k<<<1, 1>>>();\n}\n")
    a, b, c = ir(src).launches
    assert (a.kernel, a.statement_index, a.args) == ("a", 0, ())
    assert (b.kernel, b.statement_index) == ("b", 1)
    assert b.statement == at(src, b"b<<<1, 1>>>(z);")
    # An unbraced if: the statement is the whole if, third in the function body (comments do not count).
    assert (c.kernel, c.statement_index) == ("c_k", 2)
    assert c.statement == at(src, b"if (c) c_k<<<1, 1>>>();")


def test_launch_sequences_per_function_in_order():
    src = (b"#define L k0<<<1, 1>>>()\n"
           b"void second();\n"
           b"void first() {\n  k2<<<1, 1>>>();\n  k1<<<1, 1>>>();\n}\n"
           b"namespace n { void second() {\n  k3<<<1, 1>>>();\n  if (1) { k4<<<2, 2>>>(); }\n} }\n"
           b"void first_again() { k5<<<1, 1>>>(); }\n")
    m = ir(src)
    seqs = m.launch_sequences()
    assert {f: [s.kernel for s in sites] for f, sites in seqs.items()} == {
        None: ["k0"], "first": ["k2", "k1"], "second": ["k3", "k4"], "first_again": ["k5"]}
    assert list(seqs) == [None, "first", "second", "first_again"]


def test_enclosing_function_names():
    src = (b"struct A { void m() { k<<<1, 1>>>(); } };\n"
           b"void A::out() { k<<<1, 1>>>(); }\n"
           b"bool operator==(A, A) { k<<<1, 1>>>(); return true; }\n"
           b"auto lam = [] { k<<<1, 1>>>(); };\n")
    assert [s.function for s in ir(src).launches] == ["m", "A::out", "operator==", None]


# --- sync points ------------------------------------------------------------------------

def test_sync_points(module):
    assert [(p.name, p.function) for p in module.sync_points] == [
        ("cudaMalloc", "host"), ("cudaDeviceSynchronize", "host"), ("cudaMemcpy", "host")]
    assert [p.span for p in module.sync_points] == [
        at(SRC, b"cudaMalloc(&d, n * sizeof(float))"), at(SRC, b"cudaDeviceSynchronize()"),
        at(SRC, b"cudaMemcpy(b, d, n, cudaMemcpyDeviceToHost)")]


def test_sync_points_kinds_qualified_hip_and_macro():
    src = (b"#define SYNC cudaStreamSynchronize(s)\n"
           b"void f(cudaStream_t s, cudaEvent_t e) {\n"
           b"  ::cudaEventRecord(e, s);\n"
           b"  hipDeviceSynchronize();\n"
           b"  cudaGetLastError();\n"
           b"  cudaMemsetAsync(p, 0, 4, s);\n"
           b"}\n"
           b"void g() { cuCtxSynchronize(); }\n")
    points = ir(src).sync_points
    assert [(p.name, p.function) for p in points] == [
        ("cudaStreamSynchronize", None), ("cudaEventRecord", "f"), ("hipDeviceSynchronize", "f"),
        ("cudaMemsetAsync", "f"), ("cuCtxSynchronize", "g")]
    assert points[1].span == at(src, b"::cudaEventRecord(e, s)")
    assert points[0].span == at(src, b"cudaStreamSynchronize(s)")


# --- kernels in macros and error regions ---------------------------------------------------

def test_kernel_defined_in_macro_body():
    src = b"#define K __global__ void mk(float *p) { p[threadIdx.x] = 0; }\n"
    (k,) = ir(src).kernels
    assert (k.name, k.in_macro, k.clean) == ("mk", True, True)
    assert k.span == at(src, b"__global__ void mk(float *p) { p[threadIdx.x] = 0; }")
    assert k.name_span == at(src, b"mk")
    assert k.index_uses == (expr(src, b"threadIdx.x"),)


def test_kernel_with_parse_error_is_not_clean():
    src = b"__global__ void k(float *p) {\n  int a = = 1;\n  p[0] = a;\n}\n__global__ void ok(int *q) {}\n"
    bad, good = ir(src).kernels
    assert (bad.name, bad.clean) == ("k", False)
    assert (good.name, good.clean) == ("ok", True)


# --- API uses (through translate) -----------------------------------------------------------

API_SRC = b"""#include <cuda_runtime.h>
#include <cublas_v2.h>
// cudaMalloc in a comment
void f(cublasHandle_t h, int n) {
  float *p; cudaStream_t s;
  cudaMalloc(&p, n);
  const char *m = "cudaFree";
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, 0, 0, 0, 0, 0, 0, 0, 0);
  cudaFree(p);
}
#define ALLOC(x) cudaMalloc(&x, 4)
"""


def test_api_uses_from_translate():
    result = translate("api.cu", API_SRC)
    uses = result.uses
    assert [(u.name, u.kind, u.library, u.in_macro) for u in uses] == [
        ("cublasHandle_t", "type", "blas", False),
        ("cudaStream_t", "type", "runtime", False),
        ("cudaMalloc", "function", "runtime", False),
        ("cublasSgemm", "function", "blas", False),
        ("CUBLAS_OP_N", "constant", "blas", False),
        ("CUBLAS_OP_T", "constant", "blas", False),
        ("cudaFree", "function", "runtime", False),
        ("cudaMalloc", "function", "runtime", True),
    ]
    for u in uses:
        assert API_SRC[u.span[0]:u.span[1]] == u.name.encode()
        assert u.in_preprocessor is False
    # Not in the comment or the string:
    assert uses[2].span == sub(API_SRC, b"cudaMalloc(&p", b"cudaMalloc")
    assert uses[-1].span == sub(API_SRC, b"cudaMalloc(&x", b"cudaMalloc")
    assert [s.name for s in module_of("api.cu", API_SRC).sync_points] == ["cudaMalloc", "cudaFree", "cudaMalloc"]


def test_api_use_in_preprocessor_condition():
    src = b"#if defined(__CUDACC__)\nint x;\n#endif\n#ifdef __CUDACC__\nint y;\n#endif\nint z = __CUDACC__;\n"
    uses = translate("p.cu", src).uses
    assert [(u.name, u.kind, u.library, u.in_preprocessor) for u in uses] == [
        ("__CUDACC__", "constant", "driver", True),
        ("__CUDACC__", "constant", "driver", True),
        ("__CUDACC__", "constant", "driver", False),
    ]
    assert [src[u.span[0]:u.span[1]] for u in uses] == [b"__CUDACC__"] * 3
