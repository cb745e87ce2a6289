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
const int T = 128;
"""


def _block(body: str) -> tuple[tuple[int, ...], str]:
    source = HEAD + "void f(float *x, int n) {\n" + body + "\n}\n"
    parsed = parse_file(source.encode())
    site = build_ir("t.cu", parsed).launches[-1]
    value = HostValues(parsed).block_size(site)
    return value.values, value.reason


@pytest.mark.parametrize("body, why", [
    ("dim3 b(1, 1, 1); b.x = 256; k<<<1, b>>>(x);", "'b.x' is assigned (=)"),
    ("dim3 b(64); b.x *= 4; k<<<1, b>>>(x);", "'b.x' is assigned (*=)"),
    ("dim3 b(64); ++b.x; k<<<1, b>>>(x);", "'b.x' is incremented or decremented"),
    ("dim3 b(64); b = dim3(256); k<<<1, b>>>(x);", "'b' is assigned (=)"),
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
    ("int t = 128; k<<<1, t>>>(x); t = 1024; k<<<1, t>>>(x);", "'t' is assigned (=)"),
])
def test_a_local_written_after_its_initializer_is_not_known(body, why) -> None:
    values, reason = _block(body)
    assert values == ()
    assert why in reason


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


def test_a_dim3_whose_member_is_assigned_does_not_get_the_initializers_bound() -> None:
    out = _bounds("__global__ void k(float *x) { x[threadIdx.x] = 0; }\n"
                  "void f(float *x) { dim3 b(1, 1, 1); b.x = 256; k<<<1, b>>>(x); }\n")
    assert "__launch_bounds__" not in out


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
