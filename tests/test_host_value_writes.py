"""Host values account for every write: a local's value is known only when no use of it
may change it (translator.ir.writes), and `dim3 b(T)` is a variable, not a function
declaration. Each case is a program on which a bound from the initializer was wrong
before (issue 15, items 1, 3 and 7)."""

from __future__ import annotations

import pytest

from translator.frontend import parse_file
from translator.ir import build_ir
from translator.ir.host_values import HostValues
from translator.passes import Options
from translator.pipeline import translate

HEAD = """#include <cstring>
#include <iostream>
#include <utility>
__global__ void k(float *x) { x[threadIdx.x] = 0; }
void parse(int &t);
void by_value(int t);
void by_const_ref(const int &t);
void by_pointer(int *t);
void dims(dim3 &b);
template <class T> void forward(T &&t);
#define SET(v) ((v) = 1024)
#define SHOW(v) printf("%d\\n", (v))
#define WIDEN t = 1024
const int T = 128;
"""


def _block(body: str) -> tuple[tuple[int, ...], str]:
    source = HEAD + "void f(float *x, int n) {\n" + body + "\n}\n"
    parsed = parse_file(source.encode())
    site = build_ir("t.cu", parsed).launches[-1]
    value = HostValues(parsed).block_size(site)
    return value.values, value.reason


@pytest.mark.parametrize("body, why", [
    ("dim3 b(64); b.x *= 4; k<<<1, b>>>(x);", "'b.x' is assigned (*=)"),
    ("dim3 b(64); ++b.x; k<<<1, b>>>(x);", "'b.x' is incremented or decremented"),
    ("int t = 128; t += 896; k<<<1, t>>>(x);", "'t' is assigned (+=)"),
    ("int t = 128; t++; k<<<1, t>>>(x);", "'t' is incremented or decremented"),
    ("int t = 128; parse(t); k<<<1, t>>>(x);", "passed to parse, whose parameter 1 is a non-const reference"),
    ("int t = 128; std::cin >> t; k<<<1, t>>>(x);", "read into by `>>`"),
    ("int t = 128, u = 0; std::cin >> u >> t; k<<<1, t>>>(x);", "read into by `>>`"),
    ("int t = 128; int &r = t; r = 1024; k<<<1, t>>>(x);", "bound to a reference that is not const"),
    ("int t = 128; auto &&r = t; k<<<1, t>>>(x);", "bound to a reference that is not const"),
    ("dim3 b(128); unsigned &r = b.x; k<<<1, b>>>(x);", "bound to a reference that is not const"),
    ("int t = 128; int *p = &t; *p = 1024; k<<<1, t>>>(x);", "the address of 't' is taken"),
    ("dim3 b(128); memcpy(&b, &n, 4); k<<<1, b>>>(x);", "the address of 'b' is taken"),
    ("int t = 128; dims_of(t); k<<<1, t>>>(x);", "passed to dims_of, which this file does not declare"),
    ("dim3 b(128); dims(b); k<<<1, b>>>(x);", "passed to dims, whose parameter 1 is a non-const reference"),
    ("int t = 128; forward(t); k<<<1, t>>>(x);", "whose parameter 1 is a forwarding reference"),
    ("int t = 128; SET(t); k<<<1, t>>>(x);", "passed to the macro SET, whose body may write it"),
    ("int t = 128, u = 1024; std::swap(t, u); k<<<1, t>>>(x);", "passed to std::swap"),
    ("int t = 128; config.read(t); k<<<1, t>>>(x);", "passed to the member function config.read"),
    # An object-like macro that names it and assigns: no token of the function's text is it.
    ("int t = 128; WIDEN; k<<<1, t>>>(x);", "the macro WIDEN names 't' and may write it at line 16"),
    ("int t = 128; if (n) t = 256; WIDEN; k<<<1, t>>>(x);", "the macro WIDEN names 't' and may write it"),
    # Assigned constants, and another write that is not one: compound, ++, a value
    # known at run time, from itself, a reference or a capture by reference, static.
    ("int t = 128; if (n) t = 256; t *= 2; k<<<1, t>>>(x);", "'t' is assigned (*=)"),
    ("int t = 128; if (n) t = 256; t++; k<<<1, t>>>(x);", "'t' is incremented or decremented"),
    ("int t = 128; if (n) t = n; k<<<1, t>>>(x);", "it is assigned 'n' at line 16, a value known at run time"),
    ("int t = 128; if (n) t = t * 2; k<<<1, t>>>(x);", "it is assigned a value computed from itself"),
    ("int t = 128; if (n) t = 256; int &r = t; k<<<1, t>>>(x);", "bound to a reference that is not const"),
    ("int t = 128; if (n) t = 256; parse(t); k<<<1, t>>>(x);", "passed to parse, whose parameter 1 is a non-const"),
    ("int t = 128; if (n) t = 256; int *p = &t; k<<<1, t>>>(x);", "the address of 't' is taken"),
    ("int t = 128; if (n) t = 256; auto g = [&]() { return t; }; k<<<1, t>>>(x);",
     "it is captured by reference by the lambda at line 16"),
    ("int t = 128; auto g = [&t]() { return t; }; t = 256; k<<<1, t>>>(x);", "it is captured by reference"),
    ("static int t = 128; if (n) t = 256; k<<<1, t>>>(x);", "'t' is assigned (=)"),
    ("int t; if (n) t = 256; else t = 128; k<<<1, t>>>(x);",
     "it is declared with no value and first assigned at line 16 in a branch"),
    ("dim3 b(64); if (n) b = dim3(256); b.x = 512; k<<<1, b>>>(x);", "'b' is assigned (=) at line 16"),
    # A loop's counter: its update is followed only where the rest of the loop reads it.
    ("for (int t = 64; t <= 1024; t *= 2) { k<<<1, t>>>(x); t = 2048; }", "'t' is assigned (=)"),
    ("for (int t = 64; t <= n; t *= 2) k<<<1, t>>>(x);", "whose condition is not known: 'n' is a parameter of f"),
    ("for (int t = 64; t <= 1024; t += n) k<<<1, t>>>(x);", "whose step is not known: 'n' is a parameter"),
    ("for (int t = 1; t != 0; t *= 2) k<<<1, t>>>(x);", "runs over 4096 steps or leaves int's range"),
    ("for (int t = 64; t <= 1024; t *= 2, n++) k<<<1, t>>>(x);", "'t' is assigned (*=)"),
    ("int t = 64; for (t = 64; t <= 1024; t *= 2) k<<<1, t>>>(x);", "'t' is assigned (*=)"),
])
def test_a_local_written_after_its_initializer_is_not_known(body, why) -> None:
    values, reason = _block(body)
    assert values == ()
    assert why in reason


def _noted(body: str) -> tuple[tuple[int, ...], str]:
    source = HEAD + "void f(float *x, int n) {\n" + body + "\n}\n"
    parsed = parse_file(source.encode())
    value = HostValues(parsed).block_size(build_ir("t.cu", parsed).launches[-1])
    return value.values, value.note


@pytest.mark.parametrize("body, values, note", [
    ("int t = 256; if (n < 1000) t = 128; k<<<1, t>>>(x);", (128, 256),
     "'t' is 128 or 256 (its initializer and its assignment at line 16)"),
    ("int t = 128; k<<<1, t>>>(x); t = 1024; k<<<1, t>>>(x);", (128, 1024), "assignment at line 16"),
    ("dim3 b(64); if (n) b = dim3(256); k<<<1, b>>>(x);", (64, 256), "'b' is 64 or 256"),
    ("int t = 32; if (n) t = 2 * T; else t = T; k<<<1, dim3(t, 2)>>>(x);", (64, 256, 512),
     "'t' is 32 or 128 or 256 (its initializer and its assignments at lines 16, 16)"),
    ("int t = 128; auto g = [=]() { return t; }; if (n) t = 256; k<<<1, t>>>(x);", (128, 256), "'t' is 128 or 256"),
    # A namesake in a closed block is another variable: its writes are not this one's.
    ("{ int t = 32; t = 64; } int t = 128; k<<<1, t>>>(x);", (128,), ""),
    # A loop's counter in the loop's body: the values its initializer, condition and step give.
    ("for (int t = 64; t <= 1024; t = t * 2) { dim3 b(t); k<<<1, b>>>(x); }", (64, 128, 256, 512, 1024),
     "'t' is 64, 128, 256, 512, 1024 in the loop 'for (int t = 64; t <= 1024; t = t * 2)' at line 16"),
    ("for (unsigned t = 32; t < 4 * T; t += 32) k<<<1, t>>>(x);", tuple(range(32, 512, 32)),
     "'t' is 32, 64, 96, ..., 480 in the loop"),
    ("for (int t = 1024; t >= 64; t >>= 1) { if (t == n) continue; k<<<1, t>>>(x); }", (64, 128, 256, 512, 1024),
     "'t' is 64, 128, 256, 512, 1024"),
    ("for (int t = 64; t <= 256; t *= 2) k<<<1, t>>>(x); for (int t = 0; t < 3; ++t) k<<<1, 32 + t>>>(x);",
     (32, 33, 34), "'t' is 0, 1, 2 in the loop"),
])
def test_a_local_assigned_only_constants_takes_each_of_them(body, values, note) -> None:
    assert _noted(body)[0] == values
    assert note in _noted(body)[1]


@pytest.mark.parametrize("body, values", [
    ("int t = 128; by_value(t); k<<<1, t>>>(x);", (128,)),
    ("int t = 128; by_const_ref(t); k<<<1, t>>>(x);", (128,)),
    ("int t = 128; const int &r = t; k<<<1, t>>>(x);", (128,)),
    ("int t = 128; SHOW(t); k<<<1, t>>>(x);", (128,)),
    ("int t = 128; printf(\"%d\", t); cudaDeviceSynchronize(); k<<<1, t>>>(x);", (128,)),
    ("int t = 128; int u = t >> 1; k<<<1, t + u>>>(x);", (192,)),
    ("int t = 128; int u = 1024 >> t; k<<<1, t>>>(x);", (128,)),     # a shift of a number by t
    ("dim3 b(T); k<<<1, b>>>(x);", (128,)),
    ("const dim3 b(T); k<<<1, b>>>(x);", (128,)),
    ("dim3 b{T}; k<<<1, b>>>(x);", (128,)),
    ("dim3 b(T, 2); k<<<1, b>>>(x);", (256,)),
    ("int t = 128; by_pointer(&n); k<<<1, t>>>(x);", (128,)),
])
def test_reads_keep_a_local_known(body, values) -> None:
    assert _block(body) == (values, "")


def test_a_shift_of_a_parameter_by_a_local_counts_as_a_possible_extraction() -> None:
    # `n >> t` with n a parameter of unknown type may be a stream's extraction: unknown.
    values, reason = _block("int t = 128; n >> t; k<<<1, t>>>(x);")
    assert values == () and "read into by `>>`" in reason


def test_dim3_of_an_identifier_is_a_variable_not_a_function_declaration() -> None:
    assert _block("dim3 b(T); k<<<1, b>>>(x);") == ((128,), "")
    assert _block("const dim3 b(T); k<<<(n + b.x - 1) / b.x, b>>>(x);") == ((128,), "")


def test_dim3_of_a_written_local_is_unknown() -> None:
    values, reason = _block("int t = 64; parse(t); dim3 b(t); k<<<1, b>>>(x);")
    assert values == () and "non-const reference" in reason


def _bounds(source: str) -> str:
    out = translate("t.cu", source.encode(), Options(rocm_version=(5, 2), fuse=False, rebalance=False)).output
    return "\n".join(line for line in out.decode().splitlines() if "__global__" in line)


def test_a_dim3_whose_member_is_assigned_gets_the_assigned_bound_not_the_initializers() -> None:
    out = _bounds("__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
                  "void f(float *x) { dim3 b(1, 1, 1); b.x = 256; k<<<1, b>>>(x); }\n")
    assert "__launch_bounds__(256) k" in out


def test_a_block_size_parsed_at_run_time_does_not_get_the_initializers_bound() -> None:
    out = _bounds("#include <iostream>\n__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
                  "void parse(int& t) { t = 1024; }\n"
                  "void f(float *x) { int threads = 128; parse(threads); k<<<1, threads>>>(x); }\n"
                  "__global__ void g(float *x) { x[threadIdx.x] = 0; }\n"
                  "void h(float *x) { int threads = 128; std::cin >> threads; g<<<1, threads>>>(x); }\n")
    assert "__launch_bounds__" not in out


def test_a_launch_through_dim3_of_a_constant_gets_its_bound() -> None:
    out = _bounds("const int T = 128;\n__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
                  "void f(float *x) { dim3 b(T); k<<<1, b>>>(x); }\n")
    assert "__launch_bounds__(128) k" in out


# Declarations of several names, and declarations with no value assigned later (HeCBench's
# haccmk: `int n1, n2, i; n2 = 15000;`): every declarator is a declaration of its name; the
# first assignment gives the value where it is a statement of the declaration's block
# before the read, else the value is not known.
@pytest.mark.parametrize("body, values, why", [
    ("int a, t, i; t = 256; k<<<1, t>>>(x);", (256,), ""),
    ("int a = 1, t; t = 2 * T; k<<<1, t>>>(x);", (256,), ""),
    ("int t, u; t = 64; u = t * 2; k<<<1, u>>>(x);", (128,), ""),
    ("int t; t = 128; if (n) t = 512; k<<<1, t>>>(x);", (128, 512), ""),
    ("int *p, t; t = 64; k<<<1, t>>>(x);", (64,), ""),
    ("int v[4], t = 32; k<<<1, t>>>(x);", (32,), ""),
    # A local array, pointer or reference of the name hides the global T: not followed.
    ("int a, T[2]; k<<<1, T>>>(x);", (), "'T' is a local array: its value is not followed"),
    ("int a, *T; k<<<1, T>>>(x);", (), "'T' is a local pointer: its value is not followed"),
    ("int a = 4, &T = a; k<<<1, T>>>(x);", (), "'T' is a local reference: its value is not followed"),
    ("int a, T; T = 64; k<<<1, T>>>(x);", (64,), ""),
    ("int a, t; k<<<1, t>>>(x);", (), "'t' has no initializer"),
    ("int a, t; if (n) t = 64; else t = 512; k<<<1, t>>>(x);", (),
     "it is declared with no value and first assigned at line 16 in a branch, a loop or an expression"),
    ("int a, t; for (int i = 0; i < 2; ++i) t = 64; k<<<1, t>>>(x);", (), "first assigned at line 16 in a branch"),
    ("int a, t; a = (t = 64); k<<<1, t>>>(x);", (), "first assigned at line 16 in a branch, a loop or an expression"),
    ("int t; k<<<1, 32>>>(x); t = 64; k<<<1, t>>>(x); { k<<<1, t>>>(x); }", (64,), ""),
    ("int t; { t = 64; } k<<<1, t>>>(x);", (), "first assigned at line 16 in a branch"),
    ("int t; t = n; k<<<1, t>>>(x);", (), "it is assigned 'n' at line 16, a value known at run time"),
    ("int t; t = 64; t += 64; k<<<1, t>>>(x);", (), "'t' is assigned (+=)"),
    ("int t; t = 64; parse(t); k<<<1, t>>>(x);", (), "non-const reference"),
    ("int t; t = 64; if (n) goto out; t = 1024; out: k<<<1, t>>>(x);", (),
     "it is declared with no value in a function with a goto"),
    ("switch (n) { int t; case 1: t = 64; k<<<1, t>>>(x); }", (),
     "where its first assignment cannot be placed on every path"),
    ("static int t; t = 64; k<<<1, t>>>(x);", (), "'t' may be written at run time"),
])
def test_a_declaration_of_several_names_or_with_no_value_assigned_later(body, values, why) -> None:
    found, reason = _block(body)
    assert found == values, reason
    assert why in reason


def test_a_read_before_the_first_assignment_of_a_declaration_with_no_value_is_not_known() -> None:
    source = HEAD + "void f(float *x, int n) {\n int a, t;\n k<<<1, t>>>(x);\n t = 64;\n}\n"
    parsed = parse_file(source.encode())
    value = HostValues(parsed).block_size(build_ir("t.cu", parsed).launches[-1])
    assert value.values == ()
    assert value.reason == "'t' is declared with no value and read before its first assignment (line 18)"


# A dim3 written one member at a time (HeCBench's `dim3 block; block.x = 256;`, issue 28):
# each member is its declaration's value (1 where none is given) replaced by the last
# plain assignment of a known value before the launch, where that assignment is a
# statement of a block around the launch with no loop, case label or goto between them
# that could skip or repeat it; else each of the values the member is given anywhere
# (the several-values rule). Any other write keeps the dim3 unknown.
MEMBERS = HEAD + "#define BLOCK 64\nconst int BS = 32;\n#define WIDEN_B b.x = 1024\n"


def _members(body: str, at: str = "block") -> tuple[tuple[int, ...], str, str]:
    source = MEMBERS + "void f(float *x, int n) {\n" + body + "\n}\n"
    parsed = parse_file(source.encode())
    site = build_ir("t.cu", parsed).launches[-1]
    values = HostValues(parsed)
    value = values.block_size(site) if at == "block" else values.at(site.grid.span)
    return value.values, value.reason, value.note


@pytest.mark.parametrize("body, values", [
    ("dim3 b; b.x = 256; b.y = 1; b.z = 1; k<<<1, b>>>(x);", (256,)),
    ("dim3 b; b.x = 256; k<<<1, b>>>(x);", (256,)),
    ("dim3 b(1, 1, 1); b.x = T; k<<<1, b>>>(x);", (128,)),
    ("dim3 b(1, 4); b.x = T; k<<<1, b>>>(x);", (512,)),
    ("dim3 b(T, 4); b.y = 2; k<<<1, b>>>(x);", (256,)),
    ("dim3 b = dim3(8, 8); b.z = 2; k<<<1, b>>>(x);", (128,)),
    ("dim3 b; b.x = BLOCK; k<<<1, b>>>(x);", (64,)),
    ("dim3 b; b.x = BS; b.y = BS / 4; k<<<1, b>>>(x);", (256,)),
    ("dim3 b; b.x = 16; b.y = 16; b.x = 32; k<<<1, b>>>(x);", (512,)),
    ("dim3 b; b.x = 2 * T; if (n) { k<<<1, b>>>(x); }", (256,)),
    ("dim3 b; b.x = 64; for (int i = 0; i < n; ++i) k<<<1, b>>>(x);", (64,)),
    # A write in the loop's body before the launch runs on every iteration before it.
    ("dim3 b; for (int i = 0; i < n; ++i) { b.x = 64; k<<<1, b>>>(x); b.x = 128; }", (64,)),
    # Each launch has the value its last write before it gives: no path runs a later write first.
    ("dim3 b; b.x = 64; k<<<1, b>>>(x); b.x = 128;", (64,)),
    ("dim3 b; b.x = 64; k<<<1, b>>>(x); b.x = 128; k<<<1, b>>>(x);", (128,)),
    ("dim3 b; k<<<1, b>>>(x); b.x = 128;", (1,)),
    ("dim3 a, b; a.x = 4; b.x = 8 * a.x; k<<<1, b>>>(x);", (32,)),
    # A member its declaration gives at run time, replaced before the launch.
    ("dim3 b(n); b.x = 256; k<<<1, b>>>(x);", (256,)),
    ("for (dim3 b; n; ) { b.x = 64; k<<<1, b>>>(x); }", (64,)),
    ("dim3 b; b.x = 64; if (n) { dim3 b; b.x = 512; k<<<1, b>>>(x); }", (512,)),
    ("dim3 b; b.x = 64; dim3 c = b; c.x = 1024; k<<<1, b>>>(x);", (64,)),
    # Reads that write nothing.
    ("dim3 b; b.x = 256; by_value(b.x); printf(\"%d\", b.x); k<<<1, b>>>(x);", (256,)),
])
def test_a_dim3_written_member_by_member_is_known(body, values) -> None:
    found, reason, note = _members(body)
    assert (found, reason, note) == (values, "", "")


def test_the_grid_reads_the_members_of_a_block_written_member_by_member() -> None:
    body = "dim3 b; b.x = 256; dim3 g; g.x = (1000 + b.x - 1) / b.x; k<<<g, b>>>(x);"
    assert _members(body, "grid") == ((4,), "", "")
    assert _members(body) == ((256,), "", "")
    # A grid of a run-time count stays unknown; the block is still known.
    body = "dim3 b; b.x = 256; dim3 g; g.x = (n + b.x - 1) / b.x; k<<<g, b>>>(x);"
    assert _members(body, "grid")[0] == ()
    assert _members(body)[0] == (256,)
    assert _members("dim3 b; b.x = 128; k<<<1000 / b.x, b>>>(x);", "grid") == ((7,), "", "")


# Writes that a path to the launch may skip or repeat: the member is each of the values
# its declaration and its assignments give (the launch bounds take the largest; a pass
# that needs one value, rebalancing, does not act).
@pytest.mark.parametrize("body, values, note", [
    ("dim3 b; if (n) b.x = 256; k<<<1, b>>>(x);", (1, 256),
     "'b.x' is 1 or 256 (its declaration and its assignment at line 19, one of which a path to the launch may skip or repeat)"),
    ("dim3 b(64); if (n) { b.x = 256; } else { b.x = 128; } k<<<1, b>>>(x);", (64, 128, 256),
     "'b.x' is 64 or 128 or 256 (its declaration and its assignments at lines 19, 19, one of which a path to the launch may "
     "skip or repeat)"),
    ("dim3 b; b.x = 64; for (int i = 0; i < n; ++i) { k<<<1, b>>>(x); b.x = 128; }", (1, 64, 128),
     "'b.x' is 1 or 64 or 128"),
    ("dim3 b; b.x = 64; while (n--) { k<<<1, b>>>(x); if (n) b.x = 32; }", (1, 32, 64), "'b.x' is 1 or 32 or 64"),
    ("dim3 b; b.x = 64; do { k<<<1, b>>>(x); } while ((b.x = 32) && n--);", (1, 32, 64), "'b.x' is 1 or 32 or 64"),
    ("dim3 b; b.x = 64; if (n) goto out; b.x = 128; out: k<<<1, b>>>(x);", (1, 64, 128),
     "'b.x' is 1 or 64 or 128"),
    ("dim3 b; switch (n) { case 0: b.x = 64; case 1: k<<<1, b>>>(x); }", (1, 64), "'b.x' is 1 or 64"),
    ("dim3 b; b.x = 64; switch (n) { case 0: b.x = 32; { case 1: ; } k<<<1, b>>>(x); }", (1, 32, 64),
     "'b.x' is 1 or 32 or 64"),
    ("dim3 b; b.y = 2; if (n) b.x = 64; k<<<1, b>>>(x);", (2, 128), "'b.x' is 1 or 64"),
    # A lambda's copy is taken where it is made, not where it launches.
    ("dim3 b; b.x = 64; auto g = [=]() { k<<<1, b>>>(x); }; b.x = 128; g();", (1, 64, 128),
     "'b.x' is 1 or 64 or 128"),
    ("dim3 b; b.x = 64; try { b.x = 128; k<<<1, b>>>(x); } catch (...) { k<<<1, b>>>(x); }", (1, 64, 128),
     "'b.x' is 1 or 64 or 128"),
])
def test_a_dim3_member_written_where_a_path_may_skip_or_repeat_it_takes_each_value(body, values, note) -> None:
    found, reason, got = _members(body)
    assert found == values, reason
    assert note in got


@pytest.mark.parametrize("body, why", [
    ("dim3 b; b.x = 256; dim3 *p = &b; p->x = 512; k<<<1, b>>>(x);", "the address of 'b' is taken"),
    ("dim3 b; b.x = 256; unsigned *p = &b.x; *p = 512; k<<<1, b>>>(x);", "the address of 'b.x' is taken"),
    ("dim3 b; b.x = 256; dims(b); k<<<1, b>>>(x);", "passed to dims, whose parameter 1 is a non-const reference"),
    ("dim3 b; b.x = 256; dim3 &r = b; r.x = 512; k<<<1, b>>>(x);", "bound to a reference that is not const"),
    ("dim3 b; b.x = 256; auto g = [&]() { b.x = 512; }; g(); k<<<1, b>>>(x);", "captured by reference"),
    ("dim3 b; b.x = 255; b.x += 1; k<<<1, b>>>(x);", "'b.x' is assigned (+=)"),
    ("dim3 b; b.x = 255; ++b.x; k<<<1, b>>>(x);", "'b.x' is incremented or decremented"),
    ("dim3 b; b.x = n; k<<<1, b>>>(x);", "it is assigned 'n' at line 19, a value known at run time"),
    ("dim3 b; b.x = 64; b.y = b.x; k<<<1, b>>>(x);", "it is assigned a value computed from itself at line 19"),
    ("dim3 b; b.x = 64; b = dim3(128); k<<<1, b>>>(x);", "'b' is assigned (=)"),
    ("static dim3 b; b.x = 64; k<<<1, b>>>(x);", "'b' may be written at run time"),
    ("dim3 b; b.x = 64; WIDEN_B; k<<<1, b>>>(x);", "the macro WIDEN_B names 'b' and may write it"),
    ("dim3 b(n); if (n) b.x = 256; k<<<1, b>>>(x);",
     "'b.x' may keep its declaration's value, which is not known: 'n' is a parameter of f"),
    ("dim3 b; b.x = 64; (b).x = 1024; k<<<1, b>>>(x);", "'(b).x' is assigned (=)"),
    ("dim3 b; b.x = 64; std::swap(b.x, b.y); k<<<1, b>>>(x);", "passed to std::swap"),
    ("dim3 b; auto &[p, q, r] = b; p = 1024; b.x = 64; k<<<1, b>>>(x);", "bound to a reference that is not const"),
    ("dim3 b; b.x = 64; dim3 c = b; c.x = 1024; k<<<1, c>>>(x);", "initialized other than with (x, y, z)"),
])
def test_a_dim3_member_written_another_way_is_not_known(body, why) -> None:
    found, reason, _ = _members(body)
    assert found == ()
    assert why in reason
