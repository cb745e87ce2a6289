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

import sys
from contextlib import contextmanager

import pytest

from translator import edits
from translator.edits import Edit, Fix, apply_fixes, compose
from translator.frontend import directives, node_at, parse, parse_file
from translator.ir import ancestry as ancestry_module
from translator.ir import build_ir, lines
from translator.ir.ancestry import Ancestry
from translator.passes import Options
from translator.pipeline import translate
from translator.scan import _in_broken_literal, _in_directive

OPTIONS = Options(rocm_version=(6, 0))
LINEAR = 2.5        # work at 2N over work at N, at most


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
    assert [(s.name, s.function) for s in result.module.sync_points] == [("cudaFree", "f")]
    assert not [d for d in result.diagnostics if d.severity == "error"]


def test_10000_launches_in_nested_blocks_translate_with_no_recursion_on_depth() -> None:
    n = 10_000
    with shallow_stack():
        result = translate("deep.cu", block_launches(n),
                           Options(rocm_version=(6, 0), hip_kernel_execution_syntax=True))
    launches = result.module.launches
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
    launches = result.module.launches
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
