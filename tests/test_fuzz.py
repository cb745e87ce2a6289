"""The fuzzing harness (bench/fuzz.py): a short seeded campaign with no failures, the
harness's own checks against planted bugs, and hypothesis properties over generated
CUDA-like snippets with the same invariants:

  - translate never raises;
  - apply_fixes(input, result.applied) gives result.output, and (independently of
    apply_fixes) every byte outside the reported edits is unchanged and in place;
  - translating the output again with the same options changes nothing;
  - no P003 where the input parses; no P005 anywhere.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from translator.edits import Edit, Fix, apply_fixes
from translator.frontend import parse_file
from translator.passes import Options
from translator.pipeline import translate

REPO = Path(__file__).resolve().parent.parent


def _load_fuzz():
    spec = importlib.util.spec_from_file_location("cu2hip_bench_fuzz", REPO / "bench" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzz()
OPTS = {"rocm_version": (6, 2), "roc": False, "hip_kernel_execution_syntax": False}
SIMPLE = b"#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); }\n"


# ------------------------------------------------------------------ a short campaign

def test_short_seeded_campaign_has_no_failures() -> None:
    started = time.monotonic()
    summary = fuzz.run_campaign(seed=20261130, count=200, seconds=60, jobs=2, timeout=10,
                                minimize_failures=False, failures_dir=None)
    assert summary["counts"]["inputs"] == 200
    found = {kind: summary["counts"][kind] for kind in fuzz.FAILURE_KINDS}
    assert found == {kind: 0 for kind in fuzz.FAILURE_KINDS}, summary["distinct_failures"]
    assert time.monotonic() - started < 60


def test_inputs_are_reproducible() -> None:
    sources = fuzz.load_sources()
    a, b = fuzz.make_input(sources, 7, 123), fuzz.make_input(sources, 7, 123)
    assert a == b
    assert fuzz.make_input(sources, 7, 124) != a
    assert any(p.startswith("corpus/") for p, _ in sources) and any(p.startswith("tests/passes/") for p, _ in sources)


# ------------------------------------------------------------------ the harness catches planted bugs

def _kinds(outcome: dict) -> set:
    return {kind for kind, _, _ in outcome["failures"]}


def test_clean_input_passes() -> None:
    outcome = fuzz.check("a.cu", SIMPLE, OPTS)
    assert outcome["failures"] == [] and outcome["parses"] is True


def test_planted_bugs_are_caught(monkeypatch) -> None:
    import translator.diagnostics as dg
    import translator.pipeline as pipeline
    real = pipeline.translate

    def changed_outside(path, data, options=Options()):
        result = real(path, data, options)
        result.output = result.output.replace(b"void", b"v0id")
        return result
    monkeypatch.setattr(pipeline, "translate", changed_outside)
    found = fuzz.check("a.cu", SIMPLE, OPTS)["failures"]
    assert {(k, s) for k, s, _ in found} == {("changed-outside-edits", "apply_fixes"),
                                              ("changed-outside-edits", "splice")}

    def not_idempotent(path, data, options=Options()):
        result = real(path, data, options)
        result.output += b"\n"
        result.applied = result.applied + [Fix((Edit(len(data), len(data), b"\n"),), "X", "planted")]
        return result
    monkeypatch.setattr(pipeline, "translate", not_idempotent)
    assert _kinds(fuzz.check("a.cu", SIMPLE, OPTS)) == {"non-idempotent"}

    def with_diagnostic(code):
        def planted(path, data, options=Options()):
            result = real(path, data, options)
            result.diagnostics.append(dg.Diagnostic(path, 1, 1, "error", "internal error: the translation does "
                                                    "not parse at output 1:1, where the input did", code))
            return result
        return planted
    monkeypatch.setattr(pipeline, "translate", with_diagnostic("P003"))
    assert _kinds(fuzz.check("a.cu", SIMPLE, OPTS)) == {"p003-on-parsing"}
    broken = fuzz.check("a.cu", b"void f() { int x = ; cudaFree(0); }\n", OPTS)
    assert _kinds(broken) == set() and [k for k, _ in broken["notes"]] == ["p003-on-broken"]
    monkeypatch.setattr(pipeline, "translate", with_diagnostic("P005"))
    assert _kinds(fuzz.check("a.cu", SIMPLE, OPTS)) == {"p005"}

    def raising(path, data, options=Options()):
        raise RecursionError("planted")
    monkeypatch.setattr(pipeline, "translate", raising)
    found = fuzz.check("a.cu", SIMPLE, OPTS)["failures"]
    assert [(k, s.split(" at ")[0]) for k, s, _ in found] == [("exception", "RecursionError")]


WRITTEN = b"""__global__ void k(float* x) { x[threadIdx.x] = 0; }
void f(float* x)
{
    int threads = 128;
    k<<<1, threads>>>(x);
}
"""


@pytest.mark.parametrize("seed", range(12))
def test_a_write_between_the_definition_and_the_launch_leaves_the_kernel_unbounded(seed) -> None:
    import random
    data, what = fuzz.m_write_between(random.Random(seed), WRITTEN)
    assert what.startswith("write_between(") and what.endswith(" before k)")
    assert b"/* cu2hip-fuzz: writes threads before a launch of k */" in data
    outcome = fuzz.check("a.cu", data, OPTS)
    assert outcome["failures"] == [] and outcome["write_between"]
    assert b"__launch_bounds__" not in translate("a.cu", data, Options(rocm_version=(6, 2))).output


def test_a_bound_after_a_marked_write_is_caught(monkeypatch) -> None:
    import random
    import translator.pipeline as pipeline
    real = pipeline.translate
    data, _ = fuzz.m_write_between(random.Random(0), WRITTEN)

    def bounded_anyway(path, text, options=Options()):
        result = real(path, text, options)
        at = result.output.index(b"k(float")
        result.output = result.output[:at] + b"__launch_bounds__(128) " + result.output[at:]
        result.applied = result.applied + [Fix((Edit(text.index(b"k(float"), text.index(b"k(float"),
                                                     b"__launch_bounds__(128) "),), "L001",
                                               "k is launched with at most 128 threads per block")]
        return result
    monkeypatch.setattr(pipeline, "translate", bounded_anyway)
    assert "unsound-bound" in _kinds(fuzz.check("a.cu", data, OPTS))


def test_hangs_and_crashes_are_caught(monkeypatch) -> None:
    import translator.pipeline as pipeline
    real = pipeline.translate

    def planted(path, data, options=Options()):
        if b"HANG_PY" in data:
            time.sleep(30)                  # interrupted by the worker's alarm
        if b"HANG_C" in data:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            time.sleep(30)                  # as a hang in C code: only the parent's kill ends it
        if b"CRASH" in data:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(path, data, options)
    monkeypatch.setattr(pipeline, "translate", planted)
    pool = fuzz.Pool(2, [], timeout=1.0)
    try:
        outcomes = pool.map([("data", ("a.cu", b"int HANG_PY;\n", OPTS)), ("data", ("a.cu", b"int HANG_C;\n", OPTS)),
                             ("data", ("a.cu", b"int CRASH;\n", OPTS)), ("data", ("a.cu", SIMPLE, OPTS))])
    finally:
        pool.close()
    assert [sorted(_kinds(o)) for o in outcomes] == [["hang"], ["hang"], ["crash"], []]
    assert "planted" in outcomes[0]["failures"][0][1] or "sleep" in outcomes[0]["failures"][0][2]
    assert outcomes[1]["failures"][0][1].startswith("killed")


def test_splice_check_independent_of_apply_fixes() -> None:
    data = b"abcdef"
    fixes = [Fix((Edit(1, 2, b"XY"), Edit(4, 4, b"!")), "R", ""), Fix((Edit(5, 6, b""),), "R", "")]
    out = apply_fixes(data, fixes)[0]
    assert out == b"aXYcd!e"
    assert fuzz.splice_check(data, out, fixes) is None
    assert fuzz.splice_check(data, b"aXYcD!e", fixes) is not None        # a byte outside changed
    assert fuzz.splice_check(data, b"aXYcd!e+", fixes) is not None       # a byte added at the end
    assert fuzz.splice_check(data, b"aXZcd!e", fixes) is not None        # the new text is not there
    overlapping = [Fix((Edit(1, 3, b""),), "R", ""), Fix((Edit(2, 4, b""),), "R", "")]
    assert fuzz.splice_check(data, b"ae", overlapping) is not None


def test_ddmin_finds_a_small_input() -> None:
    units = [bytes([c]) for c in b"xxxxAxxxxBxxxx"]

    def failing(candidates):
        for i, c in enumerate(candidates):
            joined = b"".join(c)
            if b"A" in joined and b"B" in joined:
                return i
        return None
    assert b"".join(fuzz.ddmin(units, failing, time.monotonic() + 10, [0], 10_000, 2)) == b"AB"


# ------------------------------------------------------------------ hypothesis: CUDA-like snippets

NAMES = st.sampled_from(["p", "a", "n", "s", "d", "h", "x"])
API_STATEMENTS = st.sampled_from([
    "cudaMalloc(&p, n);", "cudaMalloc((void**)&p, n * sizeof(float));", "cudaFree(p);", "cudaFree(0);",
    "cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);", "cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s);",
    "cudaMemset(p, 0, n);", "cudaStream_t s; cudaStreamCreate(&s);", "cudaDeviceSynchronize();",
    "cudaError_t e = cudaGetLastError();", "if (cudaGetLastError() != cudaSuccess) return;",
    "cudaEvent_t ev; cudaEventCreate(&ev);", "cudaMemcpyToSymbol(c, &x, sizeof(x));", "__syncthreads();",
    "v = __shfl_down_sync(0xffffffff, v, 16);", "unsigned m = __activemask();", "int w = warpSize;",
    "cublasHandle_t hb; cublasCreate(&hb);",
    "curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);",
    "CHECK(cudaFree(p));", "CHECK(cudaMalloc(&p, n))", "cub::DeviceReduce::Sum(t, b, i, o, n);",
    "cudaLaunchKernel((void*)k, g, b, args, 0, s);", "auto f = [&] { cudaFree(p); };",
])
LAUNCHES = st.builds(
    lambda kernel, grid, block, extra, args: f"{kernel}<<<{grid}, {block}{extra}>>>({args});",
    st.sampled_from(["k", "kern", "t<float>", "ns::k", "t<int, 2>"]),
    st.sampled_from(["1", "g", "dim3(n, 1)", "(n + 255) / 256", "grid"]),
    st.sampled_from(["1", "256", "b", "dim3(16, 16)"]),
    st.sampled_from(["", ", 0", ", 0, s", ", sizeof(float) * n, s"]),
    st.sampled_from(["", "a", "a, n", "p, f<int, 2>(x), y > z"]))
COMMENTS = st.sampled_from(["// cudaMalloc(&p, n);", "/* cudaFree(p); k<<<1, 1>>>(); */",
                            "/* multi\nline cudaStream_t */",
                            "// ünïcødé cudaEvent_t ✓", "/**/"])
STRINGS = st.sampled_from(['const char* m = "cudaMalloc failed";', 'const char* r = R"(cudaFree(p) <<<1,1>>>)";',
                           "char c = '\\'';", 'puts("k<<<1, 1>>>");'])
JUNK = st.one_of(st.text(alphabet="{}()[]<>;,\"'\\/*#&|=!.\n \tabcxyz0123", min_size=1, max_size=10),
                 st.sampled_from(["<<<", ">>>", "k<<<1,1>>>();", "#", "\\", "/*", "//", "'", '"', "{", "}"]))
# Junk is one branch in eight (one in nine at file level), so that many snippets parse.
STATEMENT = st.one_of(API_STATEMENTS, LAUNCHES, API_STATEMENTS, LAUNCHES, COMMENTS, STRINGS, JUNK,
                      st.builds(lambda n: f"int {n} = 0;", NAMES))


def _block(parts: list[str]) -> str:
    return "".join(p + "\n" for p in parts)


STATEMENTS = st.recursive(
    st.lists(STATEMENT, max_size=4).map(_block),
    lambda inner: st.one_of(
        st.builds(lambda a, b: a + b, inner, inner),
        inner.map(lambda body: "{\n" + body + "}\n"),
        st.builds(lambda c, a, b: f"#if {c}\n{a}" + (f"#else\n{b}" if b is not None else "") + "#endif\n",
                  st.sampled_from(["0", "1", "defined(__CUDACC__)", "X"]), inner, st.none() | inner),
        inner.map(lambda body: "if (n > 0) {\n" + body + "} else {\n}\n"),
        inner.map(lambda body: "for (int i = 0; i < n; ++i) {\n" + body + "}\n"),
    ),
    max_leaves=10)
INCLUDES = st.sampled_from(["#include <cuda_runtime.h>", "#include <cuda.h>", "#include <cublas_v2.h>",
                            "#include <curand_kernel.h>", '#include "cuda_fp16.h"', "#include <stdio.h>",
                            "#include <cub/cub.cuh>", "#pragma once"])
DEFINES = st.sampled_from(["#define CHECK(x) do { cudaError_t e_ = (x); (void)e_; } while (0)",
                           "#define LAUNCH(n) k<<<((n) + 255) / 256, 256>>>(a, n)", "#define FULL 0xffffffff",
                           "#define cudaCheck(x) x", "#define KERNEL __global__"])
FUNCTIONS = st.builds(
    lambda head, body: head + " {\n" + body + "}\n",
    st.sampled_from(["__global__ void k(float* a, int n)", "template <typename T> __global__ void t(T* a)",
                     "__device__ float f(float v)", "void host(float* p, int n)", "int main()",
                     "static cudaError_t run(cudaStream_t s)"]),
    STATEMENTS)
TOP_ITEM = st.one_of(INCLUDES, DEFINES, FUNCTIONS, FUNCTIONS, FUNCTIONS, COMMENTS, JUNK,
                     st.sampled_from(["__constant__ float c[16];", "__device__ int d;", "cudaStream_t gs;",
                                      "texture<float, 1> tx;", "extern __shared__ float sm[];"]))
TOP = st.recursive(
    st.lists(TOP_ITEM, max_size=5).map(_block),
    lambda inner: st.builds(lambda c, a, b: f"#ifdef {c}\n{a}#else\n{b}#endif\n",
                            st.sampled_from(["X", "__HIP__", "USE_CUDA"]), inner, inner),
    max_leaves=8)
SNIPPETS = st.builds(
    lambda text, newline, tail, bytes_: (text.replace("\n", newline).encode("utf-8") + bytes_)
    if tail else text.replace("\n", newline).encode("utf-8"),
    TOP, st.sampled_from(["\n", "\n", "\r\n", "\r"]), st.integers(0, 4).map(lambda k: k == 0),
    st.binary(max_size=4).filter(lambda b: b"\0" not in b))
HYP_OPTIONS = st.builds(Options, rocm_version=st.sampled_from(fuzz.ROCM_VERSIONS), roc=st.booleans(),
                        hip_kernel_execution_syntax=st.booleans())


@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(SNIPPETS, HYP_OPTIONS)
def test_snippet_invariants(data: bytes, options: Options) -> None:
    result = translate("snippet.cu", data, options)                       # never raises
    new, _, refused = apply_fixes(data, result.applied)
    assert refused == [] and new == result.output
    assert fuzz.splice_check(data, result.output, result.applied) is None
    again = translate("snippet.cu", result.output, options)
    assert again.output == result.output, [(f.rule, f.reason) for f in again.applied]
    codes = [d.code for d in result.diagnostics]
    assert "P005" not in codes
    if not parse_file(data).main.root.has_error:
        assert "P003" not in codes, [d.format() for d in result.diagnostics if d.code == "P003"]


# ------------------------------------------------------------------ the campaign's record

def _load_summary():
    spec = importlib.util.spec_from_file_location("cu2hip_bench_fuzz_summary", REPO / "bench" / "fuzz_summary.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_campaign_record_meets_the_criterion_only_with_every_kind_of_its_seed_and_no_failure(tmp_path) -> None:
    import json
    summary = _load_summary()

    def write(kind: str, inputs: int, seed: int = 5, **failures) -> None:
        counts = {"inputs": inputs, **failures}
        record = {"seed": seed, "counts": counts, "seconds": {"campaign": 1.0}, "jobs": 15}
        if kind == "sources":
            counts["inputs-with-failures"] = sum(failures.values())
        else:
            record["kind"] = kind
        (tmp_path / f"fuzz-{kind}.json").write_text(json.dumps(record))
    for kind in summary.KINDS:
        write(kind, 30_000 if kind in summary.COUNTED else 10)
    assert summary.summarize(tmp_path, 5)["criterion_met"]
    assert not summary.summarize(tmp_path, 6)["criterion_met"]          # another seed's records
    write("rules", 30_000, **{"non-idempotent": 1})
    s = summary.summarize(tmp_path, 5)
    assert not s["criterion_met"] and s["failures"]["non-idempotent"] == 1
    assert "non-idempotent                 1" in summary.report(s)
    write("rules", 30_000)
    write("sources", 9_000, exception=0)
    s = summary.summarize(tmp_path, 5)
    assert s["inputs_counted"] == 99_000 and not s["criterion_met"]     # under 100,000
    (tmp_path / "fuzz-concurrent.json").unlink()
    write("sources", 40_000)
    s = summary.summarize(tmp_path, 5)
    assert s["missing"] == ["concurrent"] and not s["criterion_met"]


def test_a_consumer_calling_activemask_is_fused_or_not_the_same_way_in_a_second_run() -> None:
    # The seed 1705 finding, minimized: the first run refused to fuse sum_squares (its
    # __activemask() was a call the call graph could not follow), the second fused it
    # (hipify had rewritten the shuffle to __shfl_xor, without __activemask).
    data = (b"__global__ residual(co *a,t *x, co, f*r,nt n) {\nint i = blockIdx.x * blockDim.x + threadIdx.x; "
            b"if (i < n) r[i] - a[i] * x[i];\n}\n__global__ vd sum_squares(ns, o, n) {int i = blockIdx.x * "
            b"blockDim.x + threadIdx.x;\nv = __shfl_xor_sync(__activemask(),  1);\n}lo n{ residual<<<(n + 255) / "
            b"256, 256>>>(a, x, b, r, n); sum_squares<<<(n + 255) / 256, 256>>>(r, tal, n);\n")
    options = {"rocm_version": (6, 0), "roc": False, "hip_kernel_execution_syntax": False}
    assert fuzz.check("fuse_map_reduce_residual_norm.cu", data, options)["failures"] == []


def test_a_launch_in_a_block_at_file_scope_is_rebalanced_in_neither_run() -> None:
    # The seed 1801 finding (the H200 campaign), minimized: the first run parsed the launch
    # inside an ERROR and left it; the second, whose first line is the runtime include,
    # parsed it in a block at file scope with a missing '}' and rebalanced it (L007).
    # Structural edits now need the function around them to parse whole.
    data = (b')#define WIDE 1024\n(6)\n__global__ axpb(x,a,b,t n){t i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n);}'
            b'{ axpb<<<(n + WIDE - 1) / WIDE, WIDE>>>(x, 0f, 0f, n);')
    options = {"rocm_version": (7, 0), "roc": True, "hip_kernel_execution_syntax": False}
    assert fuzz.check("rebalance_launches.cu", data, options)["failures"] == []
    again = translate("a.cu", translate("a.cu", data, Options(rocm_version=(7, 0))).output, Options(rocm_version=(7, 0)))
    assert [f.rule for f in again.applied if f.rule.startswith("L")] == []
