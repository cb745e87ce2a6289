"""The runtime pass (R0xx): the loop facts it proves, shown on programs that read better
as Python than as goldens, its switch, and the benchmark's committed rewrites."""

from __future__ import annotations

import pytest

import json
import re
from pathlib import Path

from translator.cli import main
from translator.passes import Options
from translator.pipeline import translate

ROOT = Path(__file__).resolve().parent.parent
CUDA = Options(target="cuda", ignore=("L", "F"))
# The hoists alone: the loop a hoist leaves, one launch per iteration, is captured as a graph
# in the next round (R012), which these tests of the hoist's own text leave out.
HOISTS = Options(target="cuda", ignore=("L", "F", "R012"))
KERNEL = b"__global__ void k(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] = 1; }\n"


def _run(body: bytes, options: Options = CUDA):
    result = translate("case.cu", KERNEL + body, options)
    return result, {d.code: d.message for d in result.diagnostics}


def _loop(header: bytes) -> bytes:
    return (b"void f(int n) {\n    " + header + b" {\n        float* d;\n        cudaMalloc(&d, n * 4);\n"
            b"        k<<<1, 64>>>(d, n);\n        cudaFree(d);\n    }\n}\n")


def test_a_loop_that_runs_zero_times_is_refused():
    result, found = _run(_loop(b"for (int i = 5; i < 5; ++i)"))
    assert not result.changed
    assert "'i < 5' never runs (5 < 5 is false)" in found["R002"]


def test_a_loop_bounded_by_a_parameter_is_hoisted_under_its_first_iterations_condition():
    body = (b"void f(int n, int iters) {\n    for (int i = 0; i < iters; ++i) {\n        float* d;\n"
            b"        cudaMalloc(&d, n * 4);\n        k<<<1, 64>>>(d, n);\n        cudaFree(d);\n    }\n}\n")
    result, found = _run(body, HOISTS)
    assert result.output.endswith(b"void f(int n, int iters) {\n    float* d;\n    if (0 < iters) cudaMalloc(&d, n * 4);\n"
                                  b"    for (int i = 0; i < iters; ++i) {\n        k<<<1, 64>>>(d, n);\n    }\n"
                                  b"    if (0 < iters) cudaFree(d);\n}\n")
    assert "under `if (0 < iters)`" in found["R001"]
    assert "the loop may run zero times, so 'd' is allocated only where its first iteration runs" in found["R001"]
    again = translate("case.cu", result.output, HOISTS)
    assert not again.changed and not [d for d in again.diagnostics if d.code.startswith("R")]


# The counter's type is written in the guard: a typedef of an integer, std::-qualified or not.
@pytest.mark.parametrize("header, guard", [
    (b"size_t r = 1; r <= repeat; r++", b"(size_t)1 <= repeat"),
    (b"std::uint32_t r = 0; r < repeat; r++", b"(std::uint32_t)0 < repeat"),
])
def test_a_bound_and_a_size_parsed_once_from_argv_are_loop_invariant(header, guard):
    body = (b"#define CHECK(x) do { if ((x) != cudaSuccess) return 1; } while (0)\n"
            b"int main(int argc, char** argv) {\n    const int n = atoi(argv[1]);\n    int repeat = std::stoi(argv[2]);\n"
            b"    for (" + header + b") {\n        float* d;\n        CHECK(cudaMalloc(&d, n * sizeof(float)));\n"
            b"        k<<<1, 64>>>(d, n);\n        CHECK(cudaFree(d));\n    }\n    return 0;\n}\n")
    result, found = _run(body, HOISTS)
    assert b"    float* d;\n    if (" + guard + b") { CHECK(cudaMalloc(&d, n * sizeof(float))); }\n" \
           b"    for (" + header + b") {\n        k<<<1, 64>>>(d, n);\n    }\n" \
           b"    if (" + guard + b") { CHECK(cudaFree(d)); }\n    return 0;\n" in result.output
    assert "R001" in found


def test_a_stream_in_a_loop_bounded_by_a_parameter_is_hoisted_under_the_guard():
    body = (b"void f(float* x, int n, int iters) {\n    for (int i = 2; i != iters; ++i) {\n        cudaStream_t s;\n"
            b"        cudaStreamCreate(&s);\n        k<<<1, 64, 0, s>>>(x, n);\n        cudaStreamDestroy(s);\n    }\n}\n")
    result, found = _run(body)
    assert b"    cudaStream_t s;\n    if (2 != iters) cudaStreamCreate(&s);\n    for (int i = 2; i != iters; ++i) {\n" \
           b"        k<<<1, 64, 0, s>>>(x, n);\n    }\n    if (2 != iters) cudaStreamDestroy(s);\n" in result.output
    assert "R003" in found


@pytest.mark.parametrize("body, why", [
    # A bound the loop writes: the guard before the loop would not be the loop's.
    (b"void f(int n, int iters) {\n    for (int i = 0; i < iters; ++i) {\n        float* d;\n"
     b"        cudaMalloc(&d, n * 4);\n        k<<<1, 64>>>(d, n);\n        if (n > 8) iters--;\n        cudaFree(d);\n"
     b"    }\n}\n", "its bound 'iters' is not loop-invariant ('iters' is written in the loop"),
    # A while loop has no first-iteration condition to guard with.
    (b"void f(int n, int iters) {\n    while (iters > 0) {\n        float* d;\n        cudaMalloc(&d, n * 4);\n"
     b"        k<<<1, 64>>>(d, n);\n        --iters;\n        cudaFree(d);\n    }\n}\n", "may run zero times"),
    # A class's comparison could do anything.
    (b"void f(int n, Counter lo, Counter hi) {\n    for (Counter i = lo; i < hi; ++i) {\n        float* d;\n"
     b"        cudaMalloc(&d, n * 4);\n        k<<<1, 64>>>(d, n);\n        cudaFree(d);\n    }\n}\n",
     "its counter's type 'Counter' is not a built-in arithmetic type"),
], ids=["bound-written-in-the-loop", "while-loop", "class-counter"])
def test_a_loop_that_may_run_zero_times_gets_no_guard_without_its_facts(body, why):
    result, found = _run(body)
    assert not result.changed
    assert why in found["R002"]


def test_a_loop_with_known_bounds_is_hoisted_with_its_declaration():
    result, found = _run(_loop(b"for (int i = 0; i <= 3; ++i)"))
    assert result.output.endswith(b"void f(int n) {\n    float* d;\n    cudaMalloc(&d, n * 4);\n"
                                  b"    for (int i = 0; i <= 3; ++i) {\n        k<<<1, 64>>>(d, n);\n    }\n"
                                  b"    cudaFree(d);\n}\n")
    assert "the loop runs at least once" in found["R001"]


def test_a_loop_that_is_the_body_of_an_if_is_refused():
    body = (b"void f(int n, bool on) {\n    if (on) for (int i = 0; i < 4; ++i) {\n        float* d;\n"
            b"        cudaMalloc(&d, n * 4);\n        k<<<1, 64>>>(d, n);\n        cudaFree(d);\n    }\n}\n")
    result, found = _run(body)
    assert not result.changed
    assert "not a statement of a block" in found["R002"]


def test_the_inner_loop_of_two_is_hoisted_from_once():
    body = (b"void f(int n) {\n    for (int j = 0; j < 2; ++j) {\n        for (int i = 0; i < 4; ++i) {\n"
            b"            float* d;\n            cudaMalloc(&d, n * 4);\n            k<<<1, 64>>>(d, n);\n"
            b"            cudaFree(d);\n        }\n    }\n}\n")
    result, _ = _run(body)
    assert b"    for (int j = 0; j < 2; ++j) {\n        float* d;\n        cudaMalloc(&d, n * 4);\n" \
           b"        for (int i = 0; i < 4; ++i) {\n            k<<<1, 64>>>(d, n);\n        }\n" \
           b"        cudaFree(d);\n    }\n" in result.output


def test_a_name_after_the_loop_that_the_moved_declaration_would_capture_is_refused():
    body = (b"float* d;\nvoid f(int n) {\n    for (int i = 0; i < 4; ++i) {\n        float* d;\n"
            b"        cudaMalloc(&d, n * 4);\n        k<<<1, 64>>>(d, n);\n        cudaFree(d);\n    }\n"
            b"    k<<<1, 64>>>(d, n);\n}\n")
    result, found = _run(body)
    assert not result.changed
    assert "'d' is named after the loop" in found["R002"]


def test_the_hoisted_output_has_nothing_left_to_hoist():
    once, _ = _run(_loop(b"for (int i = 0; i < 4; ++i)"))
    again = translate("case.cu", once.output, CUDA)
    assert not again.changed
    assert not [d for d in again.diagnostics if d.code.startswith("R")]


def test_the_hip_translation_renames_what_was_moved():
    result, _ = _run(_loop(b"for (int i = 0; i < 4; ++i)"), Options(ignore=("L", "F")))
    assert b"    hipMalloc(&d, n * 4);\n    for (int i = 0; i < 4; ++i)" in result.output
    assert result.output.endswith(b"    }\n    hipFree(d);\n}\n")


def test_no_runtime_in_the_configuration_turns_the_pass_off(tmp_path, capsys):
    (tmp_path / "cu2hip.toml").write_text("runtime = false\n")
    src = tmp_path / "a.cu"
    src.write_bytes(KERNEL + _loop(b"for (int i = 0; i < 4; ++i)"))
    assert main(["translate", str(src), "--stdout", "--target", "cuda", "--ignore", "L,F"]) == 0
    out = capsys.readouterr()
    assert out.out.encode() == src.read_bytes()
    assert "R00" not in out.err
    assert main(["translate", str(src), "--stdout", "--target", "cuda", "--ignore", "L,F", "--runtime"]) == 0
    assert "R001" in capsys.readouterr().err


def test_the_benchmark_rewrites_are_the_current_translations():
    for name, rule in (("alloc", "R001"), ("handles", "R003"), ("graph", "R012"), ("graph1", "R012")):
        src = ROOT / "bench" / "runtime" / f"{name}.cu"
        result = translate(str(src), src.read_bytes(), Options(target="cuda"))
        assert {f.rule for f in result.applied} == {rule}, name
        assert result.output == (ROOT / "bench" / "runtime" / f"{name}.rewritten.cu").read_bytes(), name


def _deep_loop(inner: bytes, depth: int = 1500) -> bytes:
    return (b"void f(int n, bool early) {\n    for (int i = 0; i < 4; ++i) {\n        float* d;\n"
            b"        cudaMalloc(&d, n * 4);\n        k<<<1, 64>>>(d, n);\n        " + b"{" * depth + inner
            + b"}" * depth + b"\n        cudaFree(d);\n    }\n}\n")


def test_a_jump_nested_thousands_of_blocks_deep_in_a_loop_body_is_found():
    # A body 1,500 blocks deep (the fuzz campaign's nest_balanced mutation): the search
    # for a break that skips the release walks it without a RecursionError, and finds it.
    result, found = _run(_deep_loop(b"if (early) break;"))
    assert not result.changed
    assert "break" in found["R002"]
    result, found = _run(_deep_loop(b"k<<<1, 64>>>(d, n);"))
    assert "R001" in found and result.output.count(b"cudaMalloc(&d, n * 4);") == 1


def test_the_pageable_benchmark_measures_the_pinned_branch_of_r007_for_its_run_time_sizes():
    # Its element counts are run-time values: R007 decides at run time (pinned from 256 KiB
    # on, as measured); the benchmark's `rewrite` is that decision's pinned branch, applied by hand.
    src = ROOT / "bench" / "runtime" / "pageable.cu"
    data = src.read_bytes()
    result = translate(str(src), data, Options(target="cuda"))
    assert [d.code for d in result.diagnostics if d.code.startswith("R")] == ["R007"]
    (note,) = [d for d in result.diagnostics if d.code == "R007"]
    assert "its size is known only at run time" in note.message
    assert b"(n * sizeof(float)) >= 262144 && cudaMallocHost(&h, n * sizeof(float)) == cudaSuccess;" in result.output
    assert b"if (!cu2hip_pinned_h) h = (float*)malloc(n * sizeof(float));" in result.output
    assert b"if (cu2hip_pinned_h) cudaFreeHost(h); else free(h);" in result.output
    fixed = data.replace(b"  float* h = (float*)malloc(n * sizeof(float));\n",
                         b"  float* h = nullptr;\n  cudaMallocHost(&h, n * sizeof(float));\n").replace(
        b"  free(h);\n", b"  cudaFreeHost(h);\n")
    assert fixed == (ROOT / "bench" / "runtime" / "pageable.rewritten.cu").read_bytes()


def test_the_graph_estimate_is_the_recorded_measurement_or_none():
    from translator.passes.runtime import graphs
    recorded = ROOT / "bench" / "results" / "runtime-h200.json"
    saving = None
    if recorded.exists():
        entry = json.loads(recorded.read_text()).get("patterns", {}).get("graph")
        if entry and entry.get("saving_us_per_launch"):
            by_size = entry["saving_us_per_launch"]
            saving = by_size[min(by_size, key=int)]
    assert graphs.MEASURED_SAVING_US == saving
    if saving is None:
        assert "not measured yet" in graphs.estimate(2)
    else:
        assert f"{2 * saving:.1f} µs per iteration" in graphs.estimate(2)


def test_report_lists_the_runtime_findings_per_host_function_and_per_kernel(tmp_path, capsys):
    src = tmp_path / "a.cu"
    src.write_bytes(
        b"__global__ void k(float* x, int n) { __shared__ float t[64]; t[threadIdx.x] = x[threadIdx.x];"
        b" __syncthreads(); x[threadIdx.x] = t[63 - threadIdx.x]; }\n"
        b"void pinned(float* d) {\n    const int n = 1 << 20;\n    float* h = (float*)malloc(n * sizeof(float));\n"
        b"    for (int i = 0; i < 4; ++i) cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);\n"
        b"    free(h);\n}\n"
        b"void graph(float* d, int n) {\n    cudaStream_t s;\n    cudaStreamCreate(&s);\n"
        b"    for (int i = 0; i < 4; ++i) {\n        k<<<1, 64, 0, s>>>(d, n);\n        k<<<1, 64, 0, s>>>(d, n);\n"
        b"    }\n    cudaStreamDestroy(s);\n}\n")
    assert main(["report", str(src), "--no-compile", "--format", "json", "--ignore", "L,F"]) == 0
    doc = json.loads(capsys.readouterr().out)
    hosts = {r["function"]: r for r in doc["host_functions"]}
    assert sorted(hosts) == ["graph", "pinned"]
    assert (hosts["pinned"]["line"], [(f["line"], f["code"], f["applied"]) for f in hosts["pinned"]["findings"]]) \
        == (2, [(4, "R007", True)])
    assert [(f["line"], f["code"], f["applied"]) for f in hosts["graph"]["findings"]] == [(11, "R012", True)]
    (kernel,) = doc["kernels"]
    assert [c["code"] for c in kernel["launch_changes"]] == ["R012"]
    assert main(["report", str(src), "--no-compile", "--format", "html", "--ignore", "L,F"]) == 0
    page = capsys.readouterr().out
    assert "<h2>Host functions</h2>" in page
    assert f"<tr><td>{src}:2</td><td>pinned</td><td>line 4: [R007] (applied) " in page


# R010: work that no call expression of main shows (issue 28).
def _main_one_stream(before: bytes, prelude: bytes = b"") -> bytes:
    return prelude + (b"int main() {\n    float* d;\n    cudaMalloc(&d, 4096);\n    cudaStream_t s;\n"
                      b"    cudaStreamCreate(&s);\n" + before + b"    k<<<1, 64, 0, s>>>(d, 1024);\n"
                      b"    cudaDeviceSynchronize();\n    return 0;\n}\n")


def _sync_outcome(source: bytes) -> str:
    """'replaced', or R006's reason for not replacing."""
    result, found = _run(source)
    if b"cudaStreamSynchronize(s)" in result.output:
        return "replaced"
    return found.get("R006", "no R006")


def test_an_object_of_a_type_the_file_does_not_define_refuses_the_stream_sync():
    """thrust::device_vector's constructor launches a fill on the default stream."""
    why = _sync_outcome(_main_one_stream(b"    thrust::device_vector<float> v(1024);\n"))
    assert "runs the constructor of 'thrust::device_vector<float>', a type this file does not define" in why


def test_a_standard_container_of_objects_whose_constructor_launches_refuses():
    prelude = b"#include <vector>\nstruct L { L() { k<<<1, 64>>>(nullptr, 0); } };\n"
    why = _sync_outcome(_main_one_stream(b"    std::vector<L> v(3);\n", prelude))
    assert "runs the constructor of 'L' (line 3), which launches k (line 3)" in why
    assert _sync_outcome(_main_one_stream(b"    std::vector<float> v(3);\n", prelude)) == "replaced"


def test_an_object_at_file_scope_whose_constructor_launches_refuses():
    """Its constructor runs before main, and may leave work on another stream."""
    prelude = b"struct L { L() { k<<<1, 64>>>(nullptr, 0); } };\nL global_launcher;\n"
    why = _sync_outcome(_main_one_stream(b"", prelude))
    assert "the declaration 'L global_launcher;' (line 3), whose constructor runs before main" in why


def test_a_constructor_and_destructor_that_enqueue_nothing_keep_the_rewrite():
    prelude = (b"struct Timer { cudaEvent_t a; Timer() { cudaEventCreate(&a); } ~Timer() { cudaEventDestroy(a); } };\n"
               b"struct Sum { float v; Sum& operator+=(float x) { v += x; return *this; } };\n")
    assert _sync_outcome(_main_one_stream(b"    Timer t;\n    Sum total = {0};\n    total += 1.0f;\n",
                                          prelude)) == "replaced"


def test_a_constructor_defined_in_another_file_refuses():
    prelude = b"struct L { L(); };\n"
    why = _sync_outcome(_main_one_stream(b"    L l;\n", prelude))
    assert "the constructor of 'L' (line 2), which is defined in another file" in why


def test_an_object_like_macro_inside_a_function_like_macro_is_read_through():
    prelude = b"void other();\n#define STEP other()\n#define CHECK(x) do { (x); STEP; } while (0)\n"
    why = _sync_outcome(_main_one_stream(b"    CHECK(cudaGetLastError());\n", prelude))
    assert "the macro CHECK (line 10) uses the macro STEP, which expands to 'other()', a call of other" in why


def test_threads_are_found_in_the_tree_and_in_macro_bodies():
    omp = _sync_outcome(_main_one_stream(b"#pragma omp parallel for\n    for (int i = 0; i < 4; ++i) { }\n"))
    assert "the file starts host threads ('#pragma omp')" in omp
    prelude = b"#include <thread>\n#define SPAWN(f) std::thread(f).detach()\nvoid work();\n"
    macro = _sync_outcome(_main_one_stream(b"", prelude))
    assert "the file starts host threads ('std::thread (in the macro SPAWN)')" in macro
    string = _sync_outcome(_main_one_stream(b"    printf(\"std::thread pthread_create\\n\");\n"))
    assert string == "replaced"


def test_the_text_check_of_threads_for_hoisted_releases_sees_an_unqualified_thread():
    from translator.passes.runtime import ordering
    data = b"#include <thread>\nusing namespace std;\nvoid f();\nint main() { thread t(f); t.join(); }\n"
    assert ordering.unordered(data) == \
        "the file starts host threads ('thread'): another thread's work is not ordered by this one's"
    assert ordering.unordered(data.replace(b"thread t(f); t.join();", b"this_thread::yield();")) is None


_PINNED_MAIN = (b"int main() {\n    const int n = 1 << 18;\n    float* h = (float*)malloc(n * sizeof(float));\n"
                b"    float* d;\n    cudaMalloc(&d, n * sizeof(float));\n    for (int it = 0; it < 4; ++it) {\n"
                b"        CALL;\n        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);\n"
                b"        k<<<1, 64>>>(d, n);\n        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);\n"
                b"    }\n    free(h);\n    return 0;\n}\n")


def _pinned(functions: bytes, call: bytes = b"init(h, n)"):
    return _run(functions + _PINNED_MAIN.replace(b"CALL", call))


def test_a_buffer_passed_to_a_function_of_the_file_that_only_writes_its_elements_is_made_pinned():
    result, found = _pinned(b"static void init(float* a, int n) { for (int i = 0; i < n; ++i) a[i] = i; }\n"
                            b"float total(const float* a, int n) { float s = 0; for (int i = 0; i < n; ++i) s += a[i];"
                            b" return s; }\n", b"init(h, n); total(h, n); memset(h, 0, 4); std::fill(h, h + n, 1.0f)")
    assert b"    float* h = nullptr;\n    cudaMallocHost(&h, n * sizeof(float));\n" in result.output
    assert b"    cudaFreeHost(h);\n" in result.output
    assert "a function of this file that only reads and writes through it" in found["R007"]


def test_a_buffer_passed_on_through_two_functions_of_the_file_is_followed():
    result, found = _pinned(b"void set(float* b, int n) { b[0] = n; }\nvoid init(float* a, int n) { set(a, n); }\n")
    assert "R007" in found


def test_a_function_of_the_file_that_frees_or_keeps_the_buffer_refuses():
    cases = {
        b"void init(float* a, int n) { a[0] = n; free(a); }\n": "init (line 2) frees 'a'",
        b"float* kept;\nvoid init(float* a, int n) { kept = a; }\n": "in init (line 3), 'kept = a' stores or overwrites it",
        b"float* init(float* a, int n) { return a; }\n": "in init (line 2), 'a' is returned",
        b"void init(float* a, int n);\n": "'h' is passed to init, which may keep or free it: it is not defined in this file",
        b"void init(float* a, int n) { cudaMemcpyAsync(a, a, 4, cudaMemcpyDefault, 0); }\n":
            "init (line 2) copies 'a' asynchronously",
        b"void keep(float*);\nvoid init(float* a, int n) { keep(a); }\n":
            "in init (line 3), 'a' is passed to keep, which may keep or free it: it is not defined in this file",
        b"void init(float* a, int n) { a[0] = 1; }\nvoid init(double* a, int n) { a[0] = 2; }\n":
            "the file defines it 2 times",
        b"void init(float*& a, int n) { a[0] = 1; }\n": "its parameter 'float*& a' is not a plain pointer",
        b"void init(float* a, int n) { if (n > 0) init(a + 1, n - 1); }\n": "recursive",
        b"void keep(float*);\nvoid init(float* a, int n) { a[0] = n; }\n#define init(a, n) keep(a)\n":
            "init, which may keep or free it: it names a macro",
    }
    for functions, why in cases.items():
        result, found = _pinned(functions)
        assert not result.changed or b"cudaMallocHost" not in result.output, functions
        assert why in found.get("R008", ""), (functions, found.get("R008"))


def test_a_bound_that_a_call_may_change_gets_no_guard():
    for params, bound in ((b"int n, int& iters", b"iters"), (b"int n, const int* iters", b"*iters"),
                          (b"int n, Params& p", b"p.reps")):
        body = (b"struct Params { int reps; };\nvoid bump();\nvoid f(" + params + b") {\n    for (int i = 0; i < " + bound +
                b"; ++i) {\n        float* d;\n        cudaMalloc(&d, n * 4);\n        k<<<1, 64>>>(d, n);\n"
                b"        bump();\n        cudaFree(d);\n    }\n}\n")
        result, found = _run(body)
        assert not result.changed, params
        assert f"its bound '{bound.decode()}' is not loop-invariant" in found["R002"], found["R002"]


def test_two_loops_of_one_block_that_declare_the_same_name_hoist_the_first_only():
    loop = (b"    for (int it = 0; it < 4; ++it) {\n        float* p;\n        cudaMalloc(&p, n * 4);\n"
            b"        k<<<1, 64>>>(p, n);\n        cudaFree(p);\n    }\n")
    result, found = _run(b"void f(int n) {\n" + loop + loop + b"}\n")
    assert result.output.count(b"float* p;") == 2
    assert result.output.endswith(b"    cudaFree(p);\n" + loop + b"}\n")
    assert "an earlier loop of the block (line 3) has its declaration of 'p' moved out too" in found["R002"]


def test_a_new_array_of_pointers_is_sized_as_pointers_or_refused():
    # `new float*[n]` (front end: its stars are blanked for the parse) holds n pointers, not
    # n floats: a pinned allocation of n * sizeof(float) would be half the buffer.
    body = (b"typedef float* Row;\nint main() {\n    const int n = 1 << 20;\n    Row* h = new float*[n];\n"
            b"    for (int i = 0; i < n; ++i) h[i] = nullptr;\n    Row* d;\n    cudaMalloc((void**)&d, n * sizeof(Row));\n"
            b"    for (int it = 0; it < 10; ++it)\n        cudaMemcpy(d, h, n * sizeof(Row), cudaMemcpyHostToDevice);\n"
            b"    cudaFree(d);\n    delete[] h;\n    return 0;\n}\n")
    result, found = _run(body)
    assert "R008" not in found
    assert "the size of 'float*' is not known here" in found["R007"], found
    # decided at run time, at the pointers' size; the fallback is the allocation as written
    assert b"(n * sizeof(float*)) >= 262144 && cudaMallocHost(&h, n * sizeof(float*)) == cudaSuccess;" in result.output
    assert b"if (!cu2hip_pinned_h) h = new float*[n];" in result.output
    assert b"if (cu2hip_pinned_h) cudaFreeHost(h); else delete[] h;" in result.output


_SLOTS = (b"void f(int n, float** pp, cudaStream_t* streams) {\n    float* d[4];\n    float* h[4];\n"
          b"    cudaStream_t s[4];\n    for (int i = 0; i < 4; ++i) {\n        cudaMalloc(&d[i], n * 4);\n"
          b"        cudaMemset(d[i], 0, n * 4);\n        cudaHostAlloc(&h[i], n * 4, cudaHostAllocDefault);\n"
          b"        cudaMalloc((void**)(pp + i), n * 4);\n        cudaStreamCreate(&s[i]);\n"
          b"        cudaStreamCreate(streams + i);\n    }\n    for (int i = 0; i < 4; ++i) {\n"
          b"        k<<<1, 64, 0, s[i]>>>(d[i], n);\n    }\n    for (int i = 0; i < 4; ++i) {\n"
          b"        cudaFree(d[i]);\n        cudaFreeHost(h[i]);\n        cudaFree(pp[i]);\n"
          b"        cudaStreamDestroy(s[i]);\n        cudaStreamDestroy(streams[i]);\n    }\n}\n")


def test_allocating_an_array_one_element_per_iteration_is_not_an_allocation_in_a_loop():
    result, found = _run(_SLOTS)
    assert not result.changed
    assert not [d for d in result.diagnostics if d.code in ("R002", "R004")], found


def test_an_element_the_same_loop_allocates_and_frees_gets_a_precise_warning_and_fix():
    body = (b"void f(int n) {\n    float* d[4];\n    for (int i = 0; i < 4; ++i) {\n        cudaMalloc(&d[i], n * 4);\n"
            b"        k<<<1, 64>>>(d[i], n);\n        cudaFree(d[i]);\n    }\n}\n")
    result, found = _run(body)
    assert not result.changed
    assert found["R002"].startswith(
        "cudaMalloc of 'd[i]' in a loop not hoisted: each iteration allocates its own element 'd[i]' (indexed by "
        "the loop's counter 'i') and the loop releases 'cudaFree(d[i])' (line 7) too: a per-iteration allocation "
        "and free of distinct slots, which one allocation before the loop cannot stand for. Fix: stream-ordered "
        "allocation: `cudaMallocAsync(&d[i], n * 4, 0)` and "
        "`cudaFreeAsync(d[i], 0)`"), found["R002"]


def test_an_element_not_indexed_by_the_loops_own_counter_is_still_reported():
    for index, written in ((b"k0", b""), (b"i", b"        i += 1;\n"), (b"i", b"        bump(&i);\n")):
        body = (b"void bump(int*);\nvoid f(int n, int k0) {\n    float* d[8];\n    for (int i = 0; i < 4; ++i) {\n"
                b"        cudaMalloc(&d[" + index + b"], n * 4);\n" + written + b"    }\n}\n")
        result, found = _run(body)
        assert "R002" in found, (index, written)
        assert f"`cudaMallocAsync(&d[{index.decode()}], n * 4, 0)` and `cudaFreeAsync(d[{index.decode()}], 0)`" \
            in found["R002"], found["R002"]


def test_the_fix_text_is_built_from_the_argument_as_written():
    for argument, pointer in ((b"pp", "*pp"), (b"pp + j", "*(pp + j)"), (b"(void**)&q", "q"),
                              (b"(void**)pp", "*(void**)pp"), (b"&(q)", "(q)")):
        body = (b"void f(int n, float** pp, int j) {\n    float* q;\n    for (int i = 0; i < 4; ++i) {\n"
                b"        cudaMalloc(" + argument + b", n * 4);\n        k<<<1, 64>>>(q, n);\n    }\n}\n")
        _, found = _run(body)
        assert f"`cudaMallocAsync({argument.decode()}, n * 4, 0)` and `cudaFreeAsync({pointer}, 0)`" \
            in found["R002"], (argument, found["R002"])
    body = (b"float** slot(int);\nvoid f(int n) {\n    for (int i = 0; i < 4; ++i) {\n"
            b"        cudaMalloc(slot(i), n * 4);\n    }\n}\n")
    _, found = _run(body)
    assert "`cudaMallocAsync(slot(i), n * 4, 0)` and `cudaFreeAsync` of the pointer it stored through " \
           "'slot(i)' (evaluated once: the expression has a call or a write)" in found["R002"], found["R002"]
    body = (b"void f(int n, float** h) {\n    for (int i = 0; i < 4; ++i) {\n"
            b"        cudaHostAlloc(h + n, n * 4, 0);\n    }\n}\n")
    _, found = _run(body)
    assert "Fix: allocate '*(h + n)' once before the loop" in found["R002"], found["R002"]


_C_STYLE = (b"int main(int argc, char** argv) {\n    const int n = 1 << 18;\n    unsigned int* h = NULL;\n"
            b"    unsigned int* d;\n    if (argc > 5) return 1;\n    cudaMalloc(&d, n * sizeof(unsigned int));\n"
            b"    ALLOCATE\n    for (int it = 0; it < 4; ++it) {\n"
            b"        cudaMemcpy(d, h, n * sizeof(unsigned int), cudaMemcpyHostToDevice);\n"
            b"        cudaMemcpy(h, d, n * sizeof(unsigned int), cudaMemcpyDeviceToHost);\n    }\n    FREE\n"
            b"    return 0;\n}\n")


def _c_style(allocate: bytes, free: bytes = b"free(h);"):
    return _run(_C_STYLE.replace(b"ALLOCATE", allocate).replace(b"FREE", free))


def test_a_buffer_declared_null_and_allocated_once_later_is_made_pinned():
    for declared, allocate, free in ((b"unsigned int* h = NULL;", b"h = (unsigned int*)malloc(n * sizeof(unsigned int));",
                                      b"free(h);"),
                                     (b"unsigned int* h;", b"h = new unsigned int[n];", b"delete[] h;"),
                                     (b"unsigned int* h = nullptr;",
                                      b"h = static_cast<unsigned int*>(malloc(n * sizeof(unsigned int)));", b"free(h);")):
        result, found = _run(_C_STYLE.replace(b"unsigned int* h = NULL;", declared).replace(b"ALLOCATE", allocate)
                             .replace(b"FREE", free))
        assert b"\n    " + declared + b"\n" in result.output
        assert b"    cudaMallocHost(&h, n * sizeof(unsigned int));\n    for (int it" in result.output, result.output
        assert b"    cudaFreeHost(h);\n    return 0;\n" in result.output
        assert "its declaration gives it no value and this is its one assignment, before any use of it" \
            in found["R007"], found


def test_a_buffer_declared_null_and_allocated_later_is_refused_where_a_fact_is_missing():
    cases = {
        (b"h = (unsigned int*)malloc(n * 4);\n    h = (unsigned int*)malloc(n * 8);", b"free(h);"):
            "'h' is assigned 2 times in the function (lines 8 and 9)",
        (b"if (argc > 1) h = (unsigned int*)malloc(n * 4);", b"free(h);"):
            "its allocation 'h = (unsigned int*)malloc(n * 4)' (line 8) is not a statement of the block that "
            "declares it (it is in a branch, a loop or a nested block)",
        (b"printf(\"%p\\n\", (void*)h);\n    h = (unsigned int*)malloc(n * 4);", b"free(h);"):
            "'h' is used before its allocation (line 8)",
        (b"h = (unsigned int*)calloc(n, 4);", b"free(h);"):
            "calloc zero-fills it: pinned memory is not zeroed",
        (b"h = (unsigned int*)malloc(n * 4);\n    goto copy;\n    copy:", b"free(h);"):
            "a 'goto' at line 9 leaves between the allocation and the free",
        (b"h = (unsigned int*)malloc(n * 4);\n    copy:", b"free(h);\n    if (argc > 9) goto copy;"):
            "a label at line 9 lies between the allocation and the free: a goto may enter there without the allocation",
    }
    for (allocate, free), why in cases.items():
        result, found = _c_style(allocate, free)
        assert b"cudaMallocHost" not in result.output, allocate
        assert why in found.get("R008", ""), (allocate, found)


def test_two_captured_loops_of_one_block_declare_distinct_names():
    # HeCBench's main holds several repeat loops in one block: each rewrite's declarations
    # must not clash with the one before it (they were all `cu2hip_graph`...).
    loop = b"    for (int i = 0; i < repeat; i++) {\n        k<<<1, 64>>>(d, n);\n    }\n"
    result, found = _run(b"void f(float* d, int n, int repeat) {\n" + loop + loop + loop + b"}\n")
    assert [d.code for d in result.diagnostics] == ["R012"] * 3
    for name in (b"cu2hip_graph", b"cu2hip_graph_exec", b"cu2hip_graph_ok", b"cu2hip_graph_stream",
                 b"cu2hip_graph_pending"):
        declared = re.findall(rb"\b(" + name + rb"(?:_\d+)?) = (?:nullptr|0|cuda)", result.output)
        assert len(set(declared)) == 3, (name, declared)


def test_a_loop_of_one_launch_that_runs_fewer_times_than_a_graph_holds_is_left_alone():
    result, found = _run(b"void f(float* d, int n) {\n    for (int i = 0; i < 15; i++) {\n        k<<<1, 64>>>(d, n);\n"
                         b"    }\n    for (int i = 1; i <= 16; i++) {\n        k<<<1, 64>>>(d, n);\n    }\n}\n")
    assert [d.code for d in result.diagnostics] == ["R012"]
    assert result.output.count(b"cudaGraphLaunch(") == 1 and b"i <= 16" in result.output


def test_a_loop_of_launches_whose_header_reads_a_managed_variable_by_name_is_not_captured():
    # `done` is managed memory the kernel writes: the header reads it as it would `*p`, and a
    # graph (or a batch of 16 launches enqueued later) would change what each read sees.
    body = (b"__managed__ int done;\n__global__ void tick(int* c) { if (++*c == 5) done = 1; }\n"
            b"void f(int* c) {\n    for (int it = 0; it < 1000 && done == 0; ++it) {\n        tick<<<1, 1>>>(c);\n    }\n}\n")
    result, found = _run(body)
    assert not result.changed
    assert "the loop's header reads memory ('done')" in found["R013"]


def test_a_refusal_about_a_launch_a_graph_capture_copies_is_said_once():
    # The capture, its fallback and the remainder copy the launch: the rounds after the
    # capture see three more launches of the kernel, and rebalancing's note about each would
    # repeat, word for word, the one it gave the user's launch.
    body = (b"__global__ void tile(float* x) { __shared__ float t[128]; t[threadIdx.x] = x[threadIdx.x];"
            b" __syncthreads(); x[threadIdx.x] = t[127 - threadIdx.x]; }\n"
            b"void f(float* d, int repeat) {\n    for (int i = 0; i < repeat; i++) {\n        tile<<<1, 128>>>(d);\n    }\n}\n")
    result = translate("case.cu", body, Options(target="cuda"))
    codes = [d.code for d in result.diagnostics]
    assert "R012" in codes and codes.count("L009") == 1, [d.format() for d in result.diagnostics]


def test_a_captured_loop_whose_launch_shares_the_headers_line_is_indented_from_white_space_only():
    # `for (...) { k<<<...>>>();` on one line: the text before the launch is the loop's header,
    # not indentation; taking it for one level repeated the header before every line of the
    # rewrite, which did not parse (P003).
    result, found = _run(b"void f(float* d, int n, int m) {\n  for (int i = 0; i < m; ++i) { k<<<1, 64>>>(d, n);\n  }\n}\n")
    assert "P003" not in found and [f.rule for f in result.applied] == ["R012"]
    assert result.output.count(b"for (int i = 0; i < m; ++i)") == 1
    # Every line the rewrite starts is indented by white space alone.
    assert re.search(rb"\n[ ]+k<<<1, 64, 0, cu2hip_graph_stream>>>\(d, n\);\n", result.output)


# The one-launch capture of a loop on a stream the function creates (the text between the
# loop's header and its body, and after the loop, is what a test gives).
def _captured_on_s(indent: str, header: str, close: str) -> str:
    u = indent
    lines = [
        "int cu2hip_graph_pending = 0;", "cudaGraph_t cu2hip_graph = nullptr;",
        "cudaGraphExec_t cu2hip_graph_exec = nullptr;",
        "bool cu2hip_graph_ok = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess;",
        "if (cu2hip_graph_ok) {",
        u + "for (int cu2hip_graph_k = 0; cu2hip_graph_k < 16; ++cu2hip_graph_k) {",
        u * 2 + "k<<<1, 64, 0, s>>>(d, n);", u + "}",
        u + "cu2hip_graph_ok = cudaStreamEndCapture(s, &cu2hip_graph) == cudaSuccess && cu2hip_graph != nullptr;",
        u + "cu2hip_graph_ok = cu2hip_graph_ok && cudaGraphInstantiate(&cu2hip_graph_exec, cu2hip_graph, 0) == "
            "cudaSuccess;",
        "}", header,
        u + "if (!cu2hip_graph_ok) {", u * 2 + "k<<<1, 64, 0, s>>>(d, n);",
        u + "} else if (++cu2hip_graph_pending == 16) {", u * 2 + "cu2hip_graph_pending = 0;",
        u * 2 + "if (cudaGraphLaunch(cu2hip_graph_exec, s) != cudaSuccess) {", u * 3 + "cu2hip_graph_ok = false;",
        u * 3 + "for (int cu2hip_graph_k = 0; cu2hip_graph_k < 16; ++cu2hip_graph_k) {",
        u * 4 + "k<<<1, 64, 0, s>>>(d, n);", u * 3 + "}", u * 2 + "}", u + "}", close,
        "for (int cu2hip_graph_k = 0; cu2hip_graph_k < cu2hip_graph_pending; ++cu2hip_graph_k) {",
        u + "k<<<1, 64, 0, s>>>(d, n);", "}",
        "if (cu2hip_graph_exec != nullptr) cudaGraphExecDestroy(cu2hip_graph_exec);",
        "if (cu2hip_graph != nullptr) cudaGraphDestroy(cu2hip_graph);"]
    return "".join(indent + line + "\n" for line in lines)


@pytest.mark.parametrize("indent, loop, header, close", [
    # The launch on the next line: the body's indentation is the level.
    ("    ", "for (int i = 0; i < m; ++i)\n        k<<<1, 64, 0, s>>>(d, n);\n",
     "for (int i = 0; i < m; ++i) {", "}"),
    # On the header's line, after a comment: the level is what the loop's line adds to its
    # block's; the comment stays on the header's line.
    ("  ", "for (int i = 0; i < m; ++i) /* timed */ k<<<1, 64, 0, s>>>(d, n);\n",
     "for (int i = 0; i < m; ++i) { /* timed */", "}"),
    # A comment after the header, the launch on the next line with tabs, a comment after it,
    # which stays with the loop's closing brace.
    ("\t", "while (m-- > 0) // timed\n\t\tk<<<1, 64, 0, s>>>(d, n); // one\n",
     "while (m-- > 0) { // timed", "} // one"),
])
def test_a_one_launch_loop_without_braces_is_given_them_and_captured(indent, loop, header, close):
    def program(body: str) -> bytes:
        return (f"void f(float* d, int n, int m) {{\n{indent}cudaStream_t s;\n{indent}cudaStreamCreate(&s);\n"
                f"{body}{indent}cudaStreamDestroy(s);\n}}\n").encode()
    result, found = _run(program(indent + loop))
    assert [d.code for d in result.diagnostics] == ["R012"], found
    assert result.output == KERNEL + program(_captured_on_s(indent, header, close))


@pytest.mark.parametrize("loop", [
    # Not every iteration launches: the body is an `if`, not a launch.
    b"for (int i = 0; i < m; i++)\n        if (i % 2 == 0) k<<<1, 64>>>(d, n);\n",
    # The launch is a macro's expansion: the tree holds a call of LAUNCH, no launch.
    b"for (int i = 0; i < m; i++)\n        LAUNCH(d, i);\n",
    # A launch and something else in one statement.
    b"for (int i = 0; i < m; i++)\n        k<<<1, 64>>>(d, n), ++n;\n",
])
def test_a_loop_without_braces_whose_body_is_not_one_launch_is_left_as_it_is(loop):
    source = b"#define LAUNCH(p, v) k<<<1, 64>>>(p, v)\nvoid f(float* d, int n, int m) {\n    " + loop + b"}\n"
    result, found = _run(source)
    assert result.output == KERNEL + source and "R012" not in found and "R013" not in found, found


def test_a_one_launch_loop_whose_argument_chooses_by_the_counters_parity_is_captured_with_each_parity():
    # iso2dfd's ping-pong: the capture and the remainder after the loop name the parity of
    # first + j, the fallback of a failed graph launch that of the batch's own iterations.
    body = (b"void f(float* p, float* q, int n, unsigned int m) {\n"
            b"    for (unsigned int t = 2; t < m; t += 1)\n"
            b"        k<<<1, 64>>>((t % 2) ? p : q, n);\n}\n")
    result, found = _run(body)
    assert [d.code for d in result.diagnostics] == ["R012"], found
    lines = [line.strip() for line in result.output.decode().splitlines() if "k<<<" in line]
    assert lines == ["k<<<1, 64, 0, cu2hip_graph_stream>>>((((unsigned int)(2 + cu2hip_graph_k)) % 2) ? p : q, n);",
                     "k<<<1, 64>>>((t % 2) ? p : q, n);",
                     "k<<<1, 64>>>((((unsigned int)(t - 15 + cu2hip_graph_k)) % 2) ? p : q, n);",
                     "k<<<1, 64>>>((((unsigned int)(2 + cu2hip_graph_k)) % 2) ? p : q, n);"]
    assert "choose by the parity of the counter 't' (from 2, stepped by one" in found["R012"]


@pytest.mark.parametrize("loop, why", [
    (b"for (int t = 0; t < m; ++t) k<<<1, 64>>>((t % 3) ? p : q, n);", "'(t % 3) ? p : q' is not a plain expression"),
    (b"for (int t = 0; t < m; t += 2) k<<<1, 64>>>((t % 2) ? p : q, n);",
     "the loop's counter 't' is not stepped by one ('t += 2'): its parity need not alternate"),
    (b"for (int t = 0; t < m; t--) k<<<1, 64>>>((t & 1) ? p : q, n);", "is not stepped by one ('t--')"),
    (b"for (int t = n; t < m; ++t) k<<<1, 64>>>((t % 2) ? p : q, n);",
     "the first value of the loop's counter 't' is not a known constant of 0 or more"),
    (b"for (int t = -1; t < m; ++t) k<<<1, 64>>>((t % 2) ? p : q, n);", "is not a known constant of 0 or more"),
    (b"for (float t = 0; t < m; ++t) k<<<1, 64>>>(((int)t % 2) ? p : q, n);", "is not a plain expression"),
    (b"for (int t = 0; t++ < m; ++t) k<<<1, 64>>>((t % 2) ? p : q, n);",
     "the loop's condition 't++ < m' writes: it may step 't' too"),
    (b"for (int t = 0; t < m; ++t) k<<<1, 64>>>((t % 2) ? p : q, t++);",
     "'t' is written in the loop's body (line 4: 't' is incremented or decremented)"),
    (b"for (int t = 0; t < m; ++t) k<<<1, 64>>>((t % 2) ? p : q, BUMP);", "by the macro BUMP"),
    (b"int j = 0;\n    for (int t = 0; t < m; ++t) k<<<1, 64>>>((j % 2) ? p : q, n);", "'j' is not the loop's counter"),
    (b"for (int t = 0; t < m; ++t) k<<<1, 64>>>((t % 2) ? p + t : q, n);",
     "'t' is declared in the loop: its value changes per iteration (where it alternates with the counter)"),
    (b"for (int t = 0; t < m; ++t) { k<<<1, 64>>>((t % 2) ? p : q, n); k<<<1, 64>>>(p, n); }",
     "'(t % 2) ? p : q' is not a plain expression"),
])
def test_an_argument_by_the_counters_parity_is_refused_where_the_counter_need_not_alternate(loop, why):
    body = b"#define BUMP (++t, n)\nvoid f(float* p, float* q, int n, int m) {\n    " + loop + b"\n}\n"
    result, found = _run(body)
    assert "R012" not in found and why in found.get("R013", ""), found
