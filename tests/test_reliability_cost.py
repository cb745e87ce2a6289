"""Cost of translation in input size and nesting depth, checked by structure, not by time.

Speed is measured by bench/scaling.py, never by a timed unit test. These tests catch a
return to quadratic behaviour another way: they count the work of the pieces that were
quadratic (cursor moves and `.parent` calls of translator.ir.ancestry, line indexes of
translator.ir.lines, span computations of translator.edits.compose) and require it to
grow linearly (the work at 2N at most 2.5 times the work at N); and they translate deep
inputs (20,000 nested braces, 10,000 nested launches) and check the result, with Python's
recursion limit a couple of hundred frames above the caller's, which no recursion on the
tree's depth would survive.
"""

from __future__ import annotations

import math
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from translator import edits
from translator.edits import Edit, Fix, apply_fixes, compose
from translator.frontend import directives, node_at, parse, parse_file
from translator.ir import ancestry as ancestry_module
from translator.ir import build_ir, lines, module_of
from translator.ir.ancestry import Ancestry
from translator.passes import Options
from translator.pipeline import translate
from translator.scan import _in_broken_literal, _in_directive

OPTIONS = Options(rocm_version=(6, 0))
LINEAR = 2.5        # work at 2N over work at N, at most
GROWTH = 1.2        # the growth exponent, log2(work at 2N / work at N), at most (issue 24's bar)


def braces(n: int) -> bytes:
    return b"void f() {\n" + b"{" * n + b"cudaFree(0);" + b"}" * n + b"\n}\n"


def argument_launches(n: int) -> bytes:
    """n launches, each the argument of the one around it."""
    return b"__global__ void k(int x) {}\nvoid f() {\n" + b"k<<<1, 1>>>(" * n + b"0" + b")" * n + b";\n}\n"


def block_launches(n: int) -> bytes:
    """n launches, each in a block inside the block of the one before."""
    return b"__global__ void k() {}\nvoid f() {\n" + b"{ k<<<1, 1>>>();\n" * n + b"}" * n + b"\n}\n"


@contextmanager
def shallow_stack(headroom: int = 200):
    """Python's recursion limit `headroom` frames above the current depth."""
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + headroom)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def ir_work(data: bytes):
    """build_ir of `data`; (module, the main fragment's Ancestry: its cursor moves and
    `.parent` calls are the work of every walk up or down the tree)."""
    parsed = parse_file(data)
    module = build_ir("x.cu", parsed)
    tree = ancestry_module.ancestry(parsed.main)
    return module, tree


# ---------------------------------------------------------------- deep inputs translate

def test_20000_nested_braces_translate_with_no_recursion_on_depth() -> None:
    with shallow_stack():
        result = translate("deep.cu", braces(20_000), OPTIONS)
    assert result.output == b"#include <hip/hip_runtime.h>\n" + braces(20_000).replace(b"cudaFree", b"hipFree")
    with shallow_stack():
        module = module_of("deep.cu", braces(20_000), OPTIONS)
    assert [(s.name, s.function) for s in module.sync_points] == [("cudaFree", "f")]
    assert not [d for d in result.diagnostics if d.severity == "error"]


def test_10000_launches_in_nested_blocks_translate_with_no_recursion_on_depth() -> None:
    n = 10_000
    with shallow_stack():
        result = translate("deep.cu", block_launches(n),
                           Options(rocm_version=(6, 0), hip_kernel_execution_syntax=True))
        launches = module_of("deep.cu", block_launches(n)).launches
    assert len(launches) == n
    assert {(s.kernel, s.function, s.statement_index, s.clean) for s in launches} == {("k", "f", 0, True)}
    assert result.output.count(b"hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0);") == n
    assert b"<<<" not in result.output


def test_launches_nested_as_arguments_are_all_found() -> None:
    # (2,000 deep: each launch's IR keeps the text of its arguments, the launches inside
    # it, so the IR itself grows with the square of this depth.)
    n = 2_000
    with shallow_stack():
        result = translate("deep.cu", argument_launches(n), OPTIONS)
        launches = module_of("deep.cu", argument_launches(n), OPTIONS).launches
    assert len(launches) == n
    assert all(s.function == "f" for s in launches)
    assert launches[0].statement_index == 0 and all(s.statement is None or s.statement == launches[0].statement
                                                    for s in launches)
    assert launches[-1].args[0].text == "0"
    assert launches[-2].args[0].text == "k<<<1, 1>>>(0)"


def test_a_loop_macro_nested_10000_deep_is_found_at_every_level() -> None:
    n = 10_000
    data = b"void f() {\n" + b"FOR_EACH(i, n) {\n" * n + b"cudaFree(0);\n" + b"}\n" * n + b"}\n"
    with shallow_stack():
        parsed = parse_file(data)
    assert len([s for s in parsed.error_sites if "loop or block header" in s.message]) == n


# ---------------------------------------------------------------- work grows linearly

@pytest.mark.parametrize("make, n", [(braces, 4_000), (block_launches, 2_000), (argument_launches, 500)])
def test_ir_tree_walks_grow_linearly_with_depth(make, n) -> None:
    small, large = ir_work(make(n)), ir_work(make(2 * n))
    for module, tree in (small, large):
        assert tree.deep, "a tree this deep is walked with the cursor's path"
        assert tree.parent_calls <= 4 * ancestry_module.LIMIT * ancestry_module.SAMPLE
    work = [tree.moves + tree.parent_calls for _, tree in (small, large)]
    assert work[1] <= LINEAR * work[0], work


def test_a_shallow_tree_is_walked_with_parent_calls_only() -> None:
    data = b"void g() {}\n" * 50 + b"void f(float *p) {\n" \
        + b"  cudaMemcpy(p, p, 4, cudaMemcpyDefault);\n" * 200 + b"}\n"
    module, tree = ir_work(data)
    assert len(module.sync_points) == 200 and {s.function for s in module.sync_points} == {"f"}
    assert not tree.deep and tree.moves == 0


def test_deep_node_searches_start_at_the_path_not_the_root() -> None:
    """frontend.node_at on a deep tree (the scan's search for every name) goes through an
    Ancestry too: its cursor work is linear in the number of names."""
    def work(n: int) -> int:
        data = b"void f(int x) {\n" + b"".join(b"if (x == %d) { cudaFree(0); } else " % i for i in range(n)) \
            + b"{ }\n}\n"
        root = parse(data).root_node
        at = 0
        for _ in range(n):
            at = data.index(b"cudaFree", at + 1)
            node = node_at(root, at, at + 8)
            assert node is not None and node.type == "identifier"
        tree = node_at.deep
        assert tree is not None and tree.root == root
        return tree.moves
    small, large = work(1_000), work(2_000)
    assert large <= LINEAR * small, (small, large)


def test_ancestry_answers_as_parent_walks_do() -> None:
    data = (b"namespace n { template <typename T> __global__ void k(T *p) {\n"
            b"  if (threadIdx.x) { p[0] = 1; } else { if (p) p[1] += 2; }\n  (p[2]).x = 3;\n}\n"
            b"void f() { int x = ; { k<<<1, 2>>>(0); } cudaFree(0); }\n}\n")
    root = parse(data).root_node
    nodes, cursor = [], root.walk()
    while True:
        nodes.append(cursor.node)
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                break
        else:
            continue
        break

    def up(node):
        while node is not None:
            yield node
            node = node.parent

    for deep in (False, True):
        tree = Ancestry(root, deep=deep)
        for node in nodes + nodes[::-1]:
            parents = list(up(node.parent))
            assert tree.parent(node) == node.parent
            assert list(tree.ancestors(node)) == parents
            assert tree.function_of(node) == next((a for a in up(node) if a.type == "function_definition"), None)
            assert tree.error_above(node) == any(a.type == "ERROR" for a in parents)
            block = next((a for a in parents if a.type == "compound_statement"), None)
            assert tree.block_of(node)[0] == block
            ifs = [a for a in parents if a.type == "if_statement"]
            assert [i for i, _ in tree.ifs_between(node, root)] == ifs
            if node.start_byte < node.end_byte:
                expected = root.descendant_for_byte_range(node.start_byte, node.end_byte)
                if expected.start_byte != node.start_byte or expected.end_byte != node.end_byte:
                    expected = None
                assert tree.node_at(node.start_byte, node.end_byte) == expected


# ---------------------------------------------------------------- long lines

def test_one_long_line_gets_one_line_index(monkeypatch) -> None:
    made = []
    real = lines.LineIndex

    def counting(text):
        made.append(len(text))
        return real(text)
    monkeypatch.setattr(lines, "LineIndex", counting)
    lines._LAST[0] = None
    text = b"#define A \\\n  x \\\n  y\n" + b"int a; // \"" + b"cudaFree(0);" * 20_000 + b"\n#if 1\n"
    offsets = list(range(0, len(text), 97))
    for offset in offsets:
        start = text.rfind(b"\n", 0, offset) + 1
        while start > 1 and text[start - 2:start - 1] == b"\\":
            start = text.rfind(b"\n", 0, start - 1) + 1
        assert _in_directive(text, offset) == text[start:offset].lstrip(b" \t").startswith(b"#"), offset
        line = text[text.rfind(b"\n", 0, offset) + 1:offset]
        literal = b"//" in line.replace(b"://", b"") or line.count(b'"') % 2 == 1

        class Error:
            type, parent = "ERROR", None

        class Node:
            parent = Error
        assert _in_broken_literal(text, Node, offset) == literal, offset
    assert len(made) == 1, "the text's line index is built once, however many offsets"


def test_directives_on_a_long_line_are_found_once() -> None:
    text = b"int x; /* " + b"define " * 50_000 + b"*/\n  #  define A 1\n#define B\n"
    assert [text[h:e] for h, e in directives(text, b"define")] == [b"#  define", b"#define"]


# ---------------------------------------------------------------- edits

def test_apply_fixes_in_any_order_gives_the_same_text() -> None:
    n = 20_000
    data = b"ab" * n
    fixes = [Fix((Edit(2 * i, 2 * i + 1, b"xy"),), "r", str(i)) for i in range(n)]
    expected = b"xyb" * n
    for order in (fixes, fixes[::-1], fixes[::2] + fixes[1::2]):
        out, applied, rejected = apply_fixes(data, order)
        assert out == expected and len(applied) == n and not rejected
    clashing = fixes + [Fix((Edit(2 * i, 2 * i + 2, b""),), "r", "x") for i in range(0, n, 2)]
    assert len(apply_fixes(data, clashing[::-1])[2]) == n // 2


def test_compose_work_grows_linearly_with_the_groups(monkeypatch) -> None:
    """Round two touching every edit of round one (a user rule's call rewritten to a CUDA
    name, renamed the round after): the groups were merged pair by pair, quadratically."""
    calls = [0]
    real = edits._span

    def counting(*args):
        calls[0] += 1
        return real(*args)
    monkeypatch.setattr(edits, "_span", counting)

    def work(n: int) -> int:
        calls[0] = 0
        old = b"a;" * n
        first = [Fix((Edit(2 * i, 2 * i + 1, b"bb"),), "r1", f"one {i}") for i in range(n)]
        middle = apply_fixes(old, first)[0]
        second = [Fix((Edit(3 * i, 3 * i + 2, b"c"),), "r2", f"two {i}") for i in range(n)]
        out = compose(old, first, second)
        assert len(out) == n and apply_fixes(old, out)[0] == apply_fixes(middle, second)[0] == b"c;" * n
        assert out[0].reason == "one 0; then two 0"
        return calls[0]
    small, large = work(500), work(1_000)
    assert large <= LINEAR * small, (small, large)


# ---------------------------------------------------------------- shapes of issue 16 (item 5)
# Each counts the Python lines the code that was quadratic executes (sys.settrace: every
# line event, loop iterations and comprehensions included, in the files named), at N and
# at 2N: a per-item scan of everything before it shows as the square.

REPO = Path(__file__).resolve().parents[1]


@contextmanager
def lines_run(*files: str):
    """[count] of the line events in the repository's `files` (paths or folders) while
    the block runs."""
    roots = tuple(str(REPO / f) for f in files)
    count = [0]

    def local(frame, event, arg):
        if event == "line":
            count[0] += 1
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(roots) else None
    old = sys.gettrace()
    sys.settrace(calls)
    try:
        yield count
    finally:
        sys.settrace(old)


def fusible_launches(n: int) -> bytes:
    """n back-to-back launches of one elementwise kernel."""
    return (b"__global__ void inc(float *x, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            b"    if (i < n) x[i] += 1.0f;\n}\nvoid f(float *x, int n) {\n"
            + b"    inc<<<(n + 255) / 256, 256>>>(x, n);\n" * n + b"}\n")


def test_fusing_back_to_back_launches_grows_linearly() -> None:
    """The chain search compared each launch with the whole chain (every name of every
    link, every pair of pointer arguments), and the rewrite looked each launch's
    statement up in the chain's: 4,000 launches took 117 s."""
    def work(n: int) -> int:
        with lines_run("translator/passes/fusion", "translator/ir/statements.py") as count:
            result = translate("fuse.cu", fusible_launches(n), OPTIONS)
        assert result.output.count(b"<<<") == 1 and b"fused_inc<<<(n + 255) / 256, 256>>>(x, n);\n}" in result.output
        assert result.output.count(b"            x_v += 1.0f;\n") == n
        return count[0]
    small, large = work(150), work(300)
    assert large <= LINEAR * small, (small, large)


def test_a_chain_with_a_new_buffer_per_launch_is_checked_linearly() -> None:
    """Each launch adds a fresh allocation: the aliasing check looks at the pairs the
    launch adds, through the smallest arguments of each provenance class, not at every
    pair of the chain."""
    def source(n: int) -> bytes:
        body = "".join(f"    float *p{i};\n    cudaMalloc(&p{i}, n * 4);\n" for i in range(n))
        body += "".join(f"    set<<<(n + 255) / 256, 256>>>(p{i}, src, n);\n" for i in range(n))
        return ("__global__ void set(float *y, const float *x, int n) {\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = x[i];\n}\n"
                f"void f(const float *src, int n) {{\n{body}}}\n").encode()

    def work(n: int) -> int:
        with lines_run("translator/passes/fusion/chains.py") as count:
            result = translate("fresh.cu", source(n), Options(rocm_version=(6, 0), target="cuda"))
        fused = [d for d in result.diagnostics if d.code == "F001"]
        assert len(fused) == 1 and f"one launch instead of {n}" in fused[0].message
        return count[0]
    small, large = work(100), work(200)
    assert large <= LINEAR * small, (small, large)


def test_a_chain_stops_at_the_first_pointer_pair_that_may_overlap() -> None:
    """The same first pair as a check of every pair in sorted order names: the written
    argument, then the other."""
    source = (b"__global__ void set(float *y, const float *x, int n) {\n"
              b"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = x[i];\n}\n"
              b"void f(float *q, const float *src, int n) {\n    float *a, *b;\n"
              b"    cudaMalloc(&a, n * 4);\n    cudaMalloc(&b, n * 4);\n"
              b"    set<<<(n + 255) / 256, 256>>>(a, src, n);\n"
              b"    set<<<(n + 255) / 256, 256>>>(b, src, n);\n"
              b"    set<<<(n + 255) / 256, 256>>>(q + 1, src, n);\n}\n")
    result = translate("overlap.cu", source, Options(rocm_version=(6, 0), target="cuda"))
    notes = [d.message for d in result.diagnostics if d.code == "F002"]
    assert notes == ["launch of set not fused with the launch of set before it: 'a' is written and 'q+1' may "
                     "point into the same memory ('q+1' points into 'q', which is not a local that one allocation "
                     "of this function sets: where it points is not known)"]


def template_launchers(n: int) -> bytes:
    """n kernels, each launched by a function template with its template argument as the
    block size, each template called once (and more than 48 kernel names: the pattern of
    the kernels' names is any identifier)."""
    return "".join(f"__global__ void k{i}(float *x) {{ x[threadIdx.x] = 0; }}\n"
                   f"template <int B> void launch{i}(float *x) {{ k{i}<<<1, B>>>(x); }}\n"
                   f"void run{i}(float *x) {{ launch{i}<{64 * (1 + i % 4)}>(x); }}\n" for i in range(n)).encode()


def test_template_block_sizes_are_found_with_work_linear_in_the_file() -> None:
    """Each template argument asked for walked every node of the file for the template's
    calls (17.6 of 51 s of a 1 MB file)."""
    def work(n: int) -> int:
        with lines_run("translator/ir/host_values.py") as count:
            result = translate("templates.cu", template_launchers(n), OPTIONS)
        for i in range(n):
            assert f"__global__ void __launch_bounds__({64 * (1 + i % 4)}) k{i}(float *x)".encode() in result.output
        return count[0]
    small, large = work(60), work(120)
    assert large <= LINEAR * small, (small, large)


def test_launch_facts_are_of_kernel_names_only() -> None:
    from translator.ir.host_values import launch_facts
    data = template_launchers(60) + b"void g(float *y) { void (*p)(float *) = k7; run3(y); }\n"
    parsed = parse_file(data)
    facts = launch_facts(parsed, build_ir("x.cu", parsed))
    assert {f.kernel for f in facts} == {f"k{i}" for i in range(60)}
    assert [f.reason for f in facts if f.kernel == "k7"] == [
        "", "k7 is used as a value here (passed to a call or stored): the launches through it cannot be counted"]


def test_launches_nested_as_arguments_take_memory_linear_in_the_depth() -> None:
    """Each launch's arguments hold the launches inside them: their texts, kept, were the
    square of the depth (8,000 deep: 459 MB)."""
    import tracemalloc

    def peak(n: int) -> int:
        data = argument_launches(n)
        with shallow_stack():
            parsed = parse_file(data)
            tracemalloc.start()
            try:
                module = build_ir("deep.cu", parsed)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
        assert len(module.launches) == n and module.launches[-2].args[0].text == "k<<<1, 1>>>(0)"
        assert module.launches[0].args[0].text == (b"k<<<1, 1>>>(" * (n - 1) + b"0" + b")" * (n - 1)).decode()
        return peak
    small, large = peak(1_000), peak(2_000)
    assert math.log2(large / small) <= GROWTH, (small, large)


def test_nested_launches_in_hip_syntax_grow_linearly() -> None:
    """--hip-kernel-execution-syntax: the `<<<` of each nested launch was looked for in
    every launch's configuration."""
    options = Options(rocm_version=(6, 0), hip_kernel_execution_syntax=True)

    def work(n: int) -> int:
        with shallow_stack(), lines_run("translator/passes/hipify/launch_syntax.py") as count:
            result = translate("deep.cu", argument_launches(n), options)
        assert result.output.count(b"hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, k<<<1, 1>>>(") == 1
        assert sum(1 for d in result.diagnostics if d.code == "H003" and "used as a value" in d.message) == n - 1
        return count[0]
    small, large = work(500), work(1_000)
    assert math.log2(large / small) <= GROWTH, (small, large)


def test_user_renames_used_once_each_grow_linearly(tmp_path) -> None:
    """Each rename went over every fix of the file to drop the built-in ones at its token."""
    def work(n: int) -> int:
        rules = tmp_path / f"{n}.rules"
        rules.write_text("".join(f"[{'UVX'[i // 999]}{i % 999 + 1:03d}] rename old_{i} -> new_{i}\n"
                                 for i in range(n)))
        data = b"void f() {\n" + b"".join(b"    old_%d(); cudaFree(0);\n" % i for i in range(n)) + b"}\n"
        with lines_run("translator/passes/user_rules") as count:
            result = translate("rules.cu", data, Options(rocm_version=(6, 0), rules=(str(rules),)))
        assert result.output == b"#include <hip/hip_runtime.h>\n" + data.replace(b"old_", b"new_").replace(
            b"cudaFree", b"hipFree")
        return count[0]
    small, large = work(1_000), work(2_000)
    assert large <= LINEAR * small, (small, large)


def test_a_user_rename_still_wins_over_the_built_in_rename_of_its_token(tmp_path) -> None:
    rules = tmp_path / "r.rules"
    rules.write_text("rename cudaFree -> myFree\nrename cudaMalloc -> myMalloc\n")
    data = b"void f(void *p) { cudaMalloc(&p, 4); cudaMemset(p, 0, 4); cudaFree(p); }\n"
    result = translate("r.cu", data, Options(rocm_version=(6, 0), rules=(str(rules),)))
    assert result.output == b"#include <hip/hip_runtime.h>\n" \
        b"void f(void *p) { myMalloc(&p, 4); hipMemset(p, 0, 4); myFree(p); }\n"
    assert sorted(f.rule for f in result.applied) == ["H001", "H002", "U001", "U002"]


def test_a_mask_parameter_is_checked_at_its_calls_once_per_function() -> None:
    """Each shuffle whose mask is a parameter looked at every call of its function: a
    helper with n shuffles called from n kernels cost n * n."""
    def source(n: int) -> bytes:
        body = "".join(f"    v += __shfl_down_sync(mask, v, {1 + i % 16});\n" for i in range(n))
        kernels = "".join(f"__global__ void k{i}(float *x) {{ x[threadIdx.x] = red(x[threadIdx.x], 0xffffffff); }}\n"
                          for i in range(n))
        return f"__device__ float red(float v, unsigned mask) {{\n{body}    return v;\n}}\n{kernels}".encode()

    def work(n: int) -> int:
        with lines_run("translator/passes/hipify/warp_sync.py") as count:
            result = translate("mask.cu", source(n), Options(rocm_version=(6, 2)))
        assert result.output.count(b"__shfl_down_sync(__activemask(), v, ") == n
        return count[0]
    small, large = work(100), work(200)
    assert large <= LINEAR * small, (small, large)


def test_user_call_rules_used_once_each_grow_linearly(tmp_path) -> None:
    """Each call rewrite went over every fix of the file (the ones inside the call to fold)
    and every diagnostic (those at the name to drop)."""
    def work(n: int) -> int:
        rules = tmp_path / f"{n}.rules"
        rules.write_text("".join(f"[{'UVX'[i // 999]}{i % 999 + 1:03d}] call old_{i}(a, b) -> new_{i}(b, a, 0)\n"
                                 for i in range(n)))
        data = b"void f(float* p) {\n" + b"".join(b"    old_%d(p, cudaFree(p));\n" % i for i in range(n)) + b"}\n"
        with lines_run("translator/passes/user_rules") as count:
            result = translate("calls.cu", data, Options(rocm_version=(6, 0), rules=(str(rules),)))
        assert result.output == b"#include <hip/hip_runtime.h>\nvoid f(float* p) {\n" + b"".join(
            b"    new_%d(hipFree(p), p, 0);\n" % i for i in range(n)) + b"}\n"
        return count[0]
    small, large = work(500), work(1_000)
    assert large <= LINEAR * small, (small, large)


def test_api_constants_of_hoisted_arguments_are_looked_up_once_per_file() -> None:
    """The runtime pass asked, for each API constant in a loop's acquisition, whether the
    file declares that name, by a walk of the whole file: N loops cost N files."""
    def work(n: int) -> int:
        loop = (b"void f%d(float* x) {\n    for (int i = 0; i < 4; ++i) {\n        cudaStream_t s;\n"
                b"        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);\n        k<<<1, 64, 0, s>>>(x);\n"
                b"        cudaStreamDestroy(s);\n    }\n}\n")
        data = b"__global__ void k(float* x) { x[threadIdx.x] = 1; }\n" + b"".join(loop % i for i in range(n))
        with lines_run("translator/passes/runtime/loops.py") as count:
            result = translate("loops.cu", data, Options(target="cuda", ignore=("L", "F")))
        assert sum(f.rule == "R003" for f in result.applied) == n, sorted({f.rule for f in result.applied})
        return count[0]
    small, large = work(60), work(120)
    assert large <= LINEAR * small, (small, large)


def test_pinned_buffers_passed_to_the_files_functions_grow_linearly() -> None:
    """Each buffer's proof gathered the file's functions and the functions that reset the
    device by a walk of the whole file, its cache keyed on a root object that each look-up
    made anew: N buffers cost N files (300 buffers passed to one function: 150 s)."""
    def work(n: int) -> int:
        body = (b"void f%d(float* d) {\n    const int n = 1 << 18;\n    float* h = (float*)malloc(n * sizeof(float));\n"
                b"    for (int it = 0; it < 4; ++it) {\n        init(h, n);\n        init(h, n);\n"
                b"        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);\n    }\n    free(h);\n}\n")
        data = b"static void init(float* a, int n) { for (int i = 0; i < n; ++i) a[i] = i; }\n" + \
            b"".join(body % i for i in range(n))
        with lines_run("translator/passes/runtime", "translator/ir/nodes.py") as count:
            result = translate("pinned.cu", data, Options(target="cuda", ignore=("L", "F")))
        assert sum(f.rule == "R007" for f in result.applied) == n, sorted({f.rule for f in result.applied})
        return count[0]
    small, large = work(60), work(120)
    assert large <= LINEAR * small, (small, large)


def test_the_warp_facts_of_independent_functions_grow_linearly() -> None:
    """Each device function's walk read the file's #define lines again, and each call-graph
    component's facts were filtered out of every fact of the file: N functions (and N
    macros) cost N * N."""
    def work(n: int) -> int:
        data = b"".join(b"#define M%d(v) (v)\n__device__ float d%d(float v) { return __shfl_down_sync(0xffffffff, "
                        b"M%d(v), 1); }\n" % (i, i, i) for i in range(n))
        with lines_run("translator/ir/warp.py") as count:
            translate("warp.cu", data, Options(rocm_version=(6, 0)))
        return count[0]
    small, large = work(200), work(400)
    assert large <= LINEAR * small, (small, large)


def test_a_file_scope_name_declared_again_and_again_is_typed_in_linear_work() -> None:
    """A use's type came from a scan of every declaration of its name in the file's scope:
    a name declared in each of N concatenated headers, used N times, cost N * N."""
    def work(n: int) -> int:
        data = b"".join(b"extern unsigned long v;\n__device__ int f%d() { return __ffsll(v); }\n" % i for i in range(n))
        with lines_run("translator/ir/types.py") as count:
            result = translate("types.cu", data, Options(rocm_version=(6, 0)))
        assert result.output.count(b"__ffsll((unsigned long long)v)") == n, result.output[:300]
        return count[0]
    small, large = work(300), work(600)
    assert large <= LINEAR * small, (small, large)


def cmake_flag_appends(n: int) -> bytes:
    return (b"cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX CUDA)\n"
            + b'string(APPEND CMAKE_CUDA_FLAGS " -O2 -lineinfo")\n' * n + b"add_executable(app main.cu)\n")


def cmake_flag_sets(n: int) -> bytes:
    return (b"cmake_minimum_required(VERSION 3.21)\nproject(p LANGUAGES CXX CUDA)\n"
            + b'set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -O2 -lineinfo")\n' * n + b"add_executable(app main.cu)\n")


def make_flag_appends(n: int) -> bytes:
    return b"NVCC = nvcc\n" + b"NVCCFLAGS += -O2 -lineinfo\n" * n + b"app: main.cu\n\t$(NVCC) $(NVCCFLAGS) -o $@ $<\n"


def nested_cuda_genexes(n: int) -> bytes:
    return (b"project(p LANGUAGES CUDA)\nadd_executable(app main.cu)\ntarget_compile_options(app PRIVATE "
            + b"$<$<COMPILE_LANGUAGE:CUDA>:" * n + b"-lineinfo" + b">" * n + b")\n")


@pytest.mark.parametrize("path, make, n, edits", [
    ("CMakeLists.txt", cmake_flag_appends, 500, lambda n: 2 * n + 2),
    ("CMakeLists.txt", cmake_flag_sets, 500, lambda n: 3 * n + 2),
    ("Makefile", make_flag_appends, 1000, lambda n: n + 1),
    ("CMakeLists.txt", nested_cuda_genexes, 500, lambda n: n + 3)])
def test_build_files_translate_in_work_linear_in_their_size(path, make, n, edits) -> None:
    """Each edit of a build file was checked against every edit before it (N appends to
    CMAKE_CUDA_FLAGS, by string(APPEND) or set("${CMAKE_CUDA_FLAGS} ..."), 25,000 of them
    took 425 s; N `NVCCFLAGS +=` lines), and each of N
    nested `$<$<COMPILE_LANGUAGE:CUDA>:...>` had the text of all those inside it split
    into words again (3,000 deep took 134 s): the work's growth exponent is at most 1.2."""
    def work(k: int) -> int:
        with lines_run("translator/buildfiles.py", "translator/passes/buildfiles") as count:
            result = translate(path, make(k), OPTIONS)
        assert b"-lineinfo" not in result.output and not result.rejected, result.output[:300]
        assert len(result.applied) == edits(k), len(result.applied)
        return count[0]
    small, large = work(n), work(2 * n)
    assert math.log2(large / small) <= GROWTH, (small, large)


def loop_launches(n: int) -> bytes:
    """n launches, each in the body of a loop nested in the loop of the one before."""
    return (b"__global__ void k() {}\nvoid f(int m) {\n" + b"for (int i = 0; i < m; ++i) { k<<<1, 1>>>();\n" * n
            + b"}" * n + b"\n}\n")


def test_launches_in_nested_loops_grow_linearly_in_the_runtime_pass() -> None:
    """The graph capture looked for each loop's function with `.parent` walks (each of which
    costs the depth): 1,000 nested loops took 30 s (issues 23 and 24: exponent 1.7-1.9)."""
    def work(n: int) -> int:
        with shallow_stack(), lines_run("translator/passes/runtime") as count:
            result = translate("deep.cu", loop_launches(n), OPTIONS)
        # The innermost loop holds nothing but its launch: R012 captures it (its copies
        # in the capture and the fallbacks are the launches beyond n).
        assert result.output.count(b"k<<<1, 1>>>();") >= n and b"__launch_bounds__(1) k()" in result.output
        assert [f.rule for f in result.applied if f.rule.startswith("R")] == ["R012"]
        return count[0]
    small, large = work(500), work(1_000)
    assert math.log2(large / small) <= GROWTH, (small, large)


_TWICE = b"__global__ void k(float* x, int n) { x[threadIdx.x] = n; }\n"
_STREAM = b"    cudaStream_t s;\n    cudaStreamCreate(&s);\n"
_GRAPHED = b"k<<<1, 64, 0, s>>>(d, n); k<<<1, 64, 0, s>>>(d, n);"


def loops_of_launches(n: int) -> bytes:
    """n loops of two launches on a stream the function creates, one after another in one
    function: each is captured as a graph (R012)."""
    return (_TWICE + b"void f(float* d, int n) {\n" + _STREAM
            + (b"    for (int it = 0; it < 10; ++it) { " + _GRAPHED + b" }\n") * n
            + b"    cudaStreamDestroy(s);\n}\n")


def loops_of_loops_of_launches(n: int) -> bytes:
    """n loops nested one in the other, each holding a loop of two launches (R012 each)."""
    return (_TWICE + b"void f(float* d, int n) {\n" + _STREAM
            + (b"for (int i = 0; i < n; ++i) {\n  for (int j = 0; j < 4; ++j) { " + _GRAPHED + b" }\n") * n
            + b"}\n" * n + b"}\n")


def loops_of_streams(n: int) -> bytes:
    """n loops, one after another in one function, each creating and destroying a stream
    of its own name for its launch (R003 each: two moved declarations of one name in one
    block would clash)."""
    return (_TWICE + b"void f(float* d, int n) {\n"
            + b"".join(b"    for (int it = 0; it < 10; ++it) {\n        cudaStream_t s%d;\n        cudaStreamCreate(&s%d);\n"
                       b"        k<<<1, 64, 0, s%d>>>(d, n);\n        cudaStreamDestroy(s%d);\n    }\n" % ((i,) * 4)
                       for i in range(n)) + b"}\n")


@pytest.mark.parametrize("make, rule, n", [(loops_of_launches, "R012", 100), (loops_of_loops_of_launches, "R012", 100),
                                           (loops_of_streams, "R003", 100)])
def test_many_loops_of_one_function_grow_linearly_in_the_runtime_pass(make, rule, n) -> None:
    """Each loop's proof walked the whole function (is the name declared there, its address
    taken, bound to another name; does the function capture a stream; is the stream
    created; is the hoisted name used after the loop), and found the function by `.parent`
    walks: 200 loops of launches took 54 s, 100 nested 57 s. The work's growth exponent is
    at most 1.2."""
    def work(k: int) -> int:
        with shallow_stack(), lines_run("translator/passes/runtime") as count:
            result = translate("loops.cu", make(k), OPTIONS)
        assert sum(f.rule == rule for f in result.applied) == k, sorted({f.rule for f in result.applied})
        return count[0]
    small, large = work(n), work(2 * n)
    assert math.log2(large / small) <= GROWTH, (small, large)


@pytest.mark.parametrize("make", [
    # One signature of n commented parameters (hotspot's calc_temp has 13).
    lambda n: b"__global__ void k(\n" + b"".join(b"    float *p%d, // p%d(i) {\n" % (i, i) for i in range(n))
    + b"    int n) {}\n",
    # n definitions on one line, then n declarations.
    lambda n: b"".join(b"__global__ void k%d(float *x) {} " % i for i in range(n)) + b"\n"
    + b"".join(b"__global__ void d%d(float *x);\n" % i for i in range(n)),
    # n __global__ in one signature that never ends.
    lambda n: b"__global__ void k(" + b"__global__ int a, " * n,
], ids=["long-signature", "many-kernels", "unended"])
def test_the_kernels_of_a_text_are_read_in_work_linear_in_its_size(make) -> None:
    """The launch universe's reading of each file's kernels (translator.universe.kernels_of)
    looked 400 bytes past each `__global__`; it reads to each signature's end, once."""
    from translator.universe import kernels_of

    def work(n: int) -> int:
        with lines_run("translator/universe.py") as count:
            kernels_of(make(n))
        return count[0]
    small, large = work(500), work(1000)
    assert math.log2(large / small) <= GROWTH, (small, large)


def test_a_local_of_many_ended_blocks_is_looked_up_in_linear_work() -> None:
    """A local is the name at a use only while its scope holds the use: each use's lookup
    follows the enclosing scopes, not each ended block that declared the name before it
    (N blocks then N launches were N * N)."""
    def work(n: int) -> int:
        data = (b"__global__ void k(float *x) { x[threadIdx.x] = 0; }\nconst int t = 128;\nvoid f(float *x) {\n"
                + b"    { int t = 64; x[0] = t; }\n" * n + b"    k<<<1, t>>>(x);\n" * n + b"}\n")
        with lines_run("translator/ir/host_values.py") as count:
            result = translate("scopes.cu", data, Options(rocm_version=(6, 0), fuse=False, rebalance=False))
        assert b"__global__ void __launch_bounds__(128) k(" in result.output
        return count[0]
    small, large = work(200), work(400)
    assert math.log2(large / small) <= GROWTH, (small, large)
