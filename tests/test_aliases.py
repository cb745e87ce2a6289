"""Aliases (translator.facts.aliases, translator.ir.statements.Pointers) and the fusion
pass's refusals that depend on them (issue 15, items 5 and 7)."""

from __future__ import annotations

from translator.facts import Known, Unknown
from translator.frontend import parse_file
from translator.ir.statements import pointers
from translator.passes import Options
from translator.pipeline import translate

KERNELS = b"""__global__ void produce(const float* x, float* y, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * x[i]; }
__global__ void consume(const float* y, float* z, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = y[i] + 1.0f; }
"""


def _run(pre: bytes = b"", before: bytes = b"", after: bytes = b"") -> bytes:
    return pre + KERNELS + b"""void run(const float* h, float* out, int n)
{
    float *x, *y, *z;
    cudaMalloc(&x, (n + 1) * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&z, n * sizeof(float));
""" + before + b"""
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
""" + after + b"""
    cudaMemcpy(out, z, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(x); cudaFree(y); cudaFree(z);
}
"""


def _facts(code: bytes):
    parsed = parse_file(code)
    run = [n for n in parsed.main.root.named_children if n.type == "function_definition"][-1]
    return pointers(parsed, (run.start_byte, run.end_byte))


def _fusion(code: bytes):
    result = translate("t.cu", code, Options(target="cuda", ignore=("L",)))
    return ([f for f in result.applied if f.rule == "F001"],
            [d.message for d in result.diagnostics if d.code == "F002"])


def test_fusion_refuses_a_pointer_rebound_through_a_reference():
    """`float*& r = z; r = x + 1;` made z alias x; fusion used to fuse through it."""
    code = _run(before=b"    float*& r = z;\n    r = x + 1;")
    assert _facts(code).distinct("x", "z") == Unknown("'z' is bound to the reference 'r', through which it may "
                                                      "change")
    fused, notes = _fusion(code)
    assert fused == [] and notes == [
        "launch of consume not fused with the launch of produce before it: 'y' is written and 'z' may point into "
        "the same memory ('z' is bound to the reference 'r', through which it may change)"]


def test_a_const_reference_does_not_make_a_pointer_possibly_changed():
    code = _run(before=b"    float* const& r = z;\n    (void)r;")
    assert _facts(code).distinct("x", "z") == Known(True)


def test_a_pointer_passed_to_a_function_or_macro_that_may_take_it_by_reference_is_possibly_changed():
    for pre, call in ((b"void rebind(float*& p, float* q);\n", b"rebind(z, x);"),
                      (b"", b"alias_into(z, x);"),
                      (b"#define SHIFT_INTO(p, q) p = q + 1\n", b"SHIFT_INTO(z, x);")):
        facts = _facts(_run(pre=pre, before=b"    " + call))
        assert not facts.distinct("x", "z").known and "may take it by reference" in facts.distinct("x", "z").reason
    by_value = _facts(_run(pre=b"void fill(float* p, int n);\n", before=b"    fill(x, n);"))
    assert by_value.distinct("x", "z") == Known(True)


def test_a_restrict_parameter_reassigned_is_not_distinct():
    code = KERNELS + b"""void run(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    z = x + 1;
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
}
"""
    assert _facts(code).distinct("x", "z") == Unknown("'z' is assigned or its address taken in run")
    assert _fusion(code)[0] == []


def test_a_store_read_through_a_macro_is_not_dropped_as_dead():
    """`#define RESULT y ... cudaMemcpy(h, RESULT, ...)`: y's store used to be dropped."""
    code = _run(pre=b"#define RESULT y\n", after=b"    cudaMemcpy(out + n, RESULT, n * sizeof(float), "
                                                  b"cudaMemcpyDeviceToHost);")
    assert _facts(code).read_elsewhere("y") == "the macro RESULT names 'y': its uses through the macro are not seen"
    fused, _ = _fusion(code)
    text = "".join(e.text.decode() for e in fused[0].edits)
    assert len(fused) == 1 and "y[i] = y_v;" in text and "dead: not stored" not in text
    dead = _fusion(_run())[0]
    assert "dead: not stored" in "".join(e.text.decode() for e in dead[0].edits)


def test_f002_says_why_the_previous_launch_cannot_start_a_chain():
    """It used to say only "K cannot be fused" when the previous kernel was defined in
    another file or overloaded."""
    declared = b"""__global__ void produce(const float* x, float* y, int n);
__global__ void consume(const float* y, float* z, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = y[i] + 1.0f; }
void run(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
}
"""
    assert _fusion(declared)[1] == ["launch of consume not fused with the launch of produce before it: produce: its "
                                    "definition is not in this file"]
    overloaded = declared.replace(b"__global__ void produce(const float* x, float* y, int n);",
                                  b"__global__ void produce(const float* x, float* y, int n) {}\n"
                                  b"__global__ void produce(const double* x, double* y, int n) {}")
    assert _fusion(overloaded)[1] == ["launch of consume not fused with the launch of produce before it: produce: "
                                      "it is overloaded"]
