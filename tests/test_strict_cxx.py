"""What nvcc accepts and hipcc rejects (issue 20): the language of a file decides
`register`, expression types decide `__ffsll`'s cast and a half2's braces, a mask's lanes
decide the mask-less warp builtin, and a header newer than the target makes a file
unconvertible in the statistics. The rewrites themselves are goldens (tests/passes/H029_*,
H030_*, H032_*, H006_mask_lanes, H034_*), compiled by tests/test_compile.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from translator.cli import main
from translator.frontend import parse_file
from translator.ir.types import Type, Types, common, literal_type
from translator.passes import Options
from translator.pipeline import translate

ROCM52 = Options(rocm_version=(5, 2), ignore=("L", "W"))
REGISTER = b"int sum(const int* a, int n) { register int s = 0; for (register int i = 0; i < n; ++i) s += a[i]; " \
           b"return s; }\n"


def test_register_is_kept_in_a_c_file() -> None:
    result = translate("sum.c", REGISTER, ROCM52)
    assert result.output == REGISTER
    assert not [f for f in result.applied if f.rule == "H029"]


@pytest.mark.parametrize("name", ["sum.cu", "sum.cpp", "sum.h", "sum.cuh", "sum.hpp"])
def test_register_is_dropped_in_cxx_sources_and_headers(name: str) -> None:
    result = translate(name, REGISTER, ROCM52)
    assert b"register" not in result.output
    assert b"int s = 0; for (int i = 0;" in result.output
    assert sum(f.rule == "H029" for f in result.applied) == 2


def test_a_second_translation_changes_nothing() -> None:
    source = (Path(__file__).parent / "passes" / "H030_ffsll_cast" / "ffsll_known_types.cu").read_bytes()
    first = translate("a.cu", source, ROCM52).output
    assert translate("a.cu", first, ROCM52).output == first


def _types(code: bytes):
    parsed = parse_file(code)
    return Types(parsed.main, code), parsed.main.root


def _argument_type(code: bytes, call: str) -> Type | None:
    types, root = _types(code)
    start = code.index(call.encode()) + len(call) + 1
    stack = [root]
    while stack:
        node = stack.pop()
        if node.start_byte == start and node.parent is not None and node.parent.type == "argument_list":
            return types.expression_type(node)
        stack.extend(node.children)
    raise AssertionError("no argument there")


@pytest.mark.parametrize("text, expected", [
    ("1", "int"), ("1u", "unsigned int"), ("1l", "long"), ("1ul", "unsigned long"), ("1ll", "long long"),
    ("1ULL", "unsigned long long"), ("0x80000000", "unsigned int"), ("2147483648", "long"),
    ("0xffffffffffffffff", "unsigned long"), ("1.0f", "float")])
def test_literal_types_follow_cxx(text: str, expected: str) -> None:
    assert literal_type(text) == Type(expected)


@pytest.mark.parametrize("a, b, expected", [
    ("int", "long", "long"), ("unsigned int", "long", "long"), ("long long", "unsigned long", "unsigned long long"),
    ("short", "char", "int"), ("unsigned long", "long", "unsigned long"), ("int", "unsigned int", "unsigned int")])
def test_usual_arithmetic_conversions_on_lp64(a: str, b: str, expected: str) -> None:
    assert common(Type(a), Type(b)) == Type(expected)


def test_a_name_has_the_type_of_the_declaration_in_scope() -> None:
    code = (b"typedef unsigned long u64;\n"
            b"long x;\n"
            b"__device__ int f(int x, u64* words) {\n"
            b"  int r = g(x);\n"                              # the parameter, not the global
            b"  { long long x = 0; r += g(x); }\n"            # the inner block's
            b"  for (unsigned x : {1u}) r += g(x);\n"         # the range-for's
            b"  r += g(words[1]);\n"                          # an element, through the typedef
            b"  return r;\n}\n"
            b"template <typename T> __device__ int h(T v) { return g(v); }\n"
            b"__device__ int k() { auto a = 1; return g(a) + g(undeclared); }\n")
    occurrences = [i for i in range(len(code)) if code.startswith(b"g(", i)]
    types, root = _types(code)
    found = []
    for at in occurrences:
        node = root.descendant_for_byte_range(at + 2, at + 3)
        while node.parent is not None and node.parent.type != "argument_list":
            node = node.parent
        known = types.expression_type(node)
        found.append(None if known is None or not types.named(known) else known.base)
    assert found == ["int", "long long", "unsigned int", "unsigned long", None, None, None]


def test_a_field_has_the_type_of_its_struct_member() -> None:
    code = (b"#include <cstdint>\nstruct S { uint64_t bits[2]; long n; };\n"
            b"__device__ int f(const S* p, S s) { return g(p->bits[1]) + g(s.n) + g(p->n + 1u); }\n")
    assert _argument_type(code, "return g") == Type("unsigned long")
    assert _argument_type(code, "+ g") == Type("long")
    assert _argument_type(code, "n) + g") == Type("long")


def test_the_fix_says_why_the_mask_names_the_lanes_of_the_call() -> None:
    code = (b"__device__ int f(int v) {\n  unsigned m = __activemask();\n  return __shfl_sync(m, v, 0);\n}\n")
    result = translate("m.cu", code, ROCM52)
    assert b"return __shfl(v, 0);" in result.output
    reasons = [f.reason for f in result.applied if f.rule == "H006" and "__shfl" in f.reason]
    assert reasons == ["__shfl_sync(m, ...) -> __shfl(...): HIP 5.2 has no warp-sync builtins ('m' is "
                       "__activemask() taken under the same condition as this call, with no exit between: it "
                       "names exactly the lanes that run it, what the mask-less form acts on)"]


def test_a_mask_passed_to_a_function_is_not_followed() -> None:
    # `touch` may take the mask by reference and change it.
    code = (b"__device__ void touch(unsigned& m);\n"
            b"__device__ int f(int v) {\n  unsigned m = __activemask();\n  touch(m);\n"
            b"  return __shfl_sync(m, v, 0);\n}\n")
    result = translate("m.cu", code, ROCM52)
    assert b"__shfl_sync(m, v, 0)" in result.output
    assert [d.code for d in result.diagnostics] == ["H014"]


BF16 = b"#include <cuda_bf16.h>\n__global__ void k(__nv_bfloat16* a) { a[threadIdx.x] = __float2bfloat16(1.0f); }\n"


@pytest.mark.parametrize("version, unconvertible", [("5.2", 1), ("5.7", 0)])
def test_print_stats_counts_a_file_whose_header_the_target_lacks(tmp_path: Path, capsys, version: str,
                                                                 unconvertible: int) -> None:
    (tmp_path / "bf.cu").write_bytes(BF16)
    (tmp_path / "plain.cu").write_bytes(b"void f(void* p) { cudaFree(p); }\n")
    assert main(["translate", str(tmp_path / "bf.cu"), str(tmp_path / "plain.cu"), "-o", str(tmp_path / "out"),
                 "--print-stats", "-q", "--rocm-version", version]) == 0
    blocks = capsys.readouterr().out.split("[cu2hip] statistics: ")[1:]
    bf, plain, total = blocks
    assert f"  UNCONVERTIBLE files at the target: {unconvertible}\n" in bf
    assert "  UNCONVERTIBLE files at the target: 0\n" in plain
    assert f"  UNCONVERTIBLE files at the target: {unconvertible}\n" in total
    assert ("  UNCONVERTIBLE at the target, by names:\n    cuda_bf16.h: 1\n" in total) == bool(unconvertible)


def test_the_header_diagnostic_names_the_rocm_version_that_has_it() -> None:
    result = translate("bf.cu", BF16, ROCM52)
    first = result.diagnostics[0]
    assert (first.code, first.line) == ("H034", 1)
    assert "translate with --rocm-version 5.7 or newer" in first.message


def test_name_lookups_grow_linearly_with_the_declarations_of_a_block(monkeypatch) -> None:
    # Each lookup reads the block's declarations once per block, not once per use.
    calls = [0]
    declared = Types._declared

    def counting(self, kind, declarator):
        calls[0] += 1
        return declared(self, kind, declarator)
    monkeypatch.setattr(Types, "_declared", counting)

    def work(n: int) -> int:
        calls[0] = 0
        body = b"".join(b"long v%d = l; r += __ffsll(v%d);" % (i, i) for i in range(n))
        result = translate("w.cu", b"__device__ int f(long l) { int r = 0;" + body + b" return r; }\n", ROCM52)
        assert sum(f.rule == "H030" for f in result.applied) == n
        return calls[0]
    assert work(400) <= 2.5 * work(200)
