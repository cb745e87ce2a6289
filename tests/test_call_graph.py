"""The call graph's unknown edges (translator.ir.calls) and what they make the block and
elementwise analyses answer (issue 15, item 4)."""

from __future__ import annotations


from translator.frontend import parse_file
from translator.ir.calls import build_call_graph
from translator.passes import Options
from translator.pipeline import translate

PROGRAM = b"""#include <cooperative_groups.h>
namespace cg = cooperative_groups;
typedef float (*op_t)(float);
__device__ float twice(float v) { return 2 * v; }
__device__ float by_block(float v) { return v * blockDim.x; }
__device__ op_t d_op = by_block;
__device__ op_t table[2] = {twice, by_block};
extern __device__ float ext(float);
struct Scale { __device__ float operator()(float v) const { return v * blockDim.x; } };
template <typename F> __global__ void tk(float* x, int n, F f) { if (n) x[0] = f(x[0]); }
__global__ void k1(float* x) { x[0] = d_op(x[0]); }
__global__ void k2(float* x, int s) { x[0] = table[s](x[0]); }
__global__ void k3(float* x) { x[0] = ext(x[0]); }
__global__ void k4(float* x, Scale s) { x[0] = s(x[0]) + sqrtf(x[0]) + twice(1.0f) + std::min(1.0f, 2.0f); }
__global__ void k5(float* x, const Scale* p) { x[0] = p->apply(x[0]); }
__global__ void k6(float* x) { cg::thread_block b = cg::this_thread_block(); x[0] = b.size(); }
"""


def _graph():
    return {f.name: f for f in build_call_graph(parse_file(PROGRAM)).functions}


def test_calls_the_graph_cannot_follow_are_unknown_edges_with_their_reason():
    g = _graph()
    assert g["tk"].unknown == (("f", "f is a functor of the template parameter type F: what it calls is not known"),)
    assert g["k1"].unknown == (("d_op", "d_op is a function pointer (or a table of them): its target is not known"),)
    assert g["k2"].unknown[0][0] == "table[s]" and "table of function pointers" in g["k2"].unknown[0][1]
    assert g["k3"].unknown == (("ext", "ext is declared but not defined in this file (extern): its body is not "
                                       "known"),)
    assert "member call" in g["k5"].unknown[0][1]


def test_library_calls_known_helpers_and_cooperative_groups_are_not_unknown_edges():
    g = _graph()
    assert g["k4"].calls == ("twice",)
    assert [w for w, _ in g["k4"].unknown] == ["s"]         # the functor only: sqrtf, std::min are the library's
    assert g["k6"].unknown == () and g["twice"].unknown == ()


def test_warp_builtins_in_either_spelling_are_library_calls_not_unknown_edges():
    # __activemask() was a call "cu2hip cannot follow" and __shfl_xor() was not: a reduction
    # consumer refused by fusion in a first run fused in a second, once hipify had
    # rewritten __shfl_xor_sync(__activemask(), v, 1) (the sources campaign, seed 1705).
    code = (b"__global__ void k(unsigned* x, float v) { x[0] = __activemask() | __ballot_sync(__activemask(), v > 0) "
            b"| __ballot(v > 0) | __lane_id(); v += __shfl_xor_sync(__activemask(), v, 1) + __shfl_xor(v, 1) "
            b"+ __shfl_down_sync(0xffffffff, v, 2) + __shfl(v, 0); x[1] = __any_sync(1u, v > 0) + __all(v > 0); }\n")
    graph = {f.name: f for f in build_call_graph(parse_file(code)).functions}
    assert graph["k"].unknown == () and graph["k"].calls == ()


def _l007(code: bytes) -> tuple[list[str], list[str]]:
    result = translate("t.cu", code, Options())
    return [f.rule for f in result.applied if f.rule == "L007"], [d.message for d in result.diagnostics
                                                                 if d.code == "L009"]


KERNEL = b"""%s
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = %s;
}
void run(float* x, int n) { k<<<(n + 127) / 128, 128>>>(x, n); }
"""


def test_rebalancing_refuses_a_kernel_calling_a_device_function_pointer_to_a_block_reader():
    applied, notes = _l007(KERNEL % (b"typedef float (*op_t)(float);\n__device__ float b(float v) { return v * "
                                     b"blockDim.x; }\n__device__ op_t d_op = b;", b"d_op(x[i])"))
    assert applied == [] and notes == ["k keeps 128 threads per block: it makes a call cu2hip cannot follow: d_op "
                                       "is a function pointer (or a table of them): its target is not known, so "
                                       "its result may depend on the block size"]


def test_rebalancing_refuses_a_template_functor_whose_operator_reads_blockdim():
    code = b"""struct ByBlock { __device__ float operator()(float v) const { return v * blockDim.x; } };
template <typename F> __global__ void apply(float* x, int n, F f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = f(x[i]);
}
void run(float* x, int n) { apply<<<(n + 127) / 128, 128>>>(x, n, ByBlock()); }
"""
    applied, notes = _l007(code)
    assert applied == [] and "functor of the template parameter type F" in notes[0]


def test_rebalancing_refuses_an_extern_device_function():
    applied, notes = _l007(KERNEL % (b"extern __device__ float ext(float v);", b"ext(x[i])"))
    assert applied == [] and "ext is declared but not defined in this file" in notes[0]


def test_rebalancing_refuses_cooperative_groups_block_and_grid_queries():
    pre = b"#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;"
    for query in (b"cg::this_thread_block().thread_rank()", b"x[i] / cg::this_thread_block().size()",
                  b"x[i] * cg::this_grid().size()", b"cg::this_grid().num_blocks()",
                  b"cg::this_thread_block().group_dim().x"):
        applied, notes = _l007(KERNEL % (pre, query))
        assert applied == [] and "it queries a cooperative group" in notes[0], query


def test_rebalancing_still_moves_a_kernel_calling_library_functions_and_pure_helpers():
    applied, _ = _l007(KERNEL % (b"__device__ float twice(float v) { return 2.0f * v; }",
                                 b"twice(sqrtf(x[i])) + fminf(x[i], 1.0f)"))
    assert applied == ["L007"]


def test_reinterpret_and_const_casts_call_nothing_whatever_their_type():
    # reinterpret_cast was "a call cu2hip cannot follow", and a kernel using it kept its
    # block (the corpus's atomic_max_float; HeCBench's bit tricks): neither cast runs any
    # code of a class, so the call graph has no edge for either, of any type.
    helper = (b"struct Pair { int a, b; };\n__device__ void bump(float *p) { "
              b"*reinterpret_cast<unsigned int *>(p) += 1u; reinterpret_cast<Pair *>(p)->a = 0; }")
    graph = {f.name: f for f in build_call_graph(parse_file(KERNEL % (helper, b"x[i]"))).functions}
    assert graph["bump"].unknown == () and graph["bump"].calls == ()
    applied, notes = _l007(KERNEL % (helper, b"(bump(&x[i]), *const_cast<float *>(&x[i]))"))
    assert applied == ["L007"] and notes == []


def test_fusion_refuses_a_kernel_whose_helper_calls_an_extern_function():
    code = b"""extern __device__ float ext(float v);
__device__ float helper(float v) { return ext(v) + 1.0f; }
__global__ void a(float* __restrict__ x, float* __restrict__ y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * x[i]; }
__global__ void b(const float* __restrict__ y, float* __restrict__ z, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = helper(y[i]); }
void run(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{ a<<<(n + 255) / 256, 256>>>(x, y, n); b<<<(n + 255) / 256, 256>>>(y, z, n); }
"""
    result = translate("t.cu", code, Options(target="cuda"))
    assert not [f for f in result.applied if f.rule == "F001"]
    assert [d.message for d in result.diagnostics if d.code == "F002"] == [
        "launch of b not fused with the launch of a before it: b is not elementwise: it calls helper, which makes "
        "a call cu2hip cannot follow: ext is declared but not defined in this file (extern): its body is not known"]


def test_a_macros_calls_include_template_calls_and_its_casts_keep_their_type():
    # `width<int>(v)` in a macro was no call at all (a name followed by `<`, not `(`), and
    # neither was `static_cast<Wide>(x)`: a helper reading blockDim and a class's
    # constructor were invisible, and such kernels were rebalanced.
    from translator.ir.macros import called_names
    assert called_names("width<int>(v) + f<g<int>>(y) + static_cast<unsigned int*>(p) + h(1) + (x < y)") == [
        "width", "f", "static_cast<unsigned int *>", "h"]
    assert called_names("a < b ? c : d") == [] and called_names("a<b>c(1)") == ["c"]
