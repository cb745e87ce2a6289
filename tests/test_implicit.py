"""Code that runs where no call is written (translator.ir.implicit): a class's operators,
constructors and conversions, and free operators, in the file and its local headers."""

from __future__ import annotations

import pytest

from translator.frontend import parse_file
from translator.ir.block_agnostic import _SEES_THE_BLOCK
from translator.ir.elementwise import _HELPER_HAZARDS
from translator.ir.implicit import hazard
from translator.ir.macros import table_of

TAIL = ", and a class's operators, constructors and conversions run where no call is written"


def _block(code: bytes, headers=()) -> str | None:
    return hazard(parse_file(code), table_of(code), list(headers), _SEES_THE_BLOCK)


@pytest.mark.parametrize("code, why", [
    (b"struct V { int x; __device__ V operator+(const V &o) const { V r; r.x = x + blockDim.x; return r; } };",
     "the file's V::operator+ uses blockDim"),
    (b"struct W { int x; __device__ W &operator=(int v) { x = v * threadIdx.x; return *this; } };",
     "the file's W::operator= uses threadIdx"),
    (b"struct R { int x; __device__ R operator*(int) const; };\n"
     b"__device__ R R::operator*(int s) const { R r; r.x = s * gridDim.x; return r; }",
     "the file's R::operator* uses gridDim"),
    (b"__device__ int2 operator+(int2 a, int2 b) { return make_int2(a.x + warpSize, b.y); }",
     "the file's operator+ uses warpSize"),
    (b"struct C { int x; __device__ C() : x(blockDim.x) {} };", "the file's C::C uses blockDim"),
    (b"template <typename T> struct Q { T v; __device__ operator T() const { return v + gridDim.x; } };",
     "the file's Q::operator T uses gridDim"),
    (b"__device__ int width() { return blockDim.x; }\nstruct C { int x; __device__ C() { x = width(); } };",
     "the file's C::C uses blockDim (through width)"),
    (b"struct S { int x; __device__ int lane() const { return threadIdx.x; } "
     b"__device__ ~S() { x = lane(); } };", "the file's S::~S uses threadIdx (through lane)"),
    (b"struct E { int x; __device__ E() { x = elsewhere(); } };", "the file's E::E calls elsewhere, which it does not "
                                                                  "define"),
])
def test_a_member_no_call_names_that_sees_the_block_is_found_with_its_reason(code: bytes, why: str):
    assert _block(code) == why + TAIL


def test_members_that_see_nothing_of_the_block_and_other_functions_are_not_hazards():
    code = (b"__device__ float twice(float v) { return 2 * v; }\n"
            b"__device__ float by_block(float v) { return v * blockDim.x; }\n"     # a plain function: the graph's
            b"struct V { float x; __device__ V() : x(1.0f) {} __device__ V(float v) : x(twice(v)) {}\n"
            b"  __device__ V operator+(const V &o) const { return V(x + sqrtf(o.x)); }\n"
            b"  __device__ operator float() const { return static_cast<float>(x); }\n"
            b"  __device__ float get() const { return x * blockDim.x; } };\n")          # a member call: an edge
    assert _block(code) is None


def test_a_headers_classes_count_and_the_macro_table_is_read_through():
    header = (b"#define WIDTH blockDim.x\n#define OFFSET ((int)WIDTH)\n"
              b"struct C { int x; __device__ C() : x(OFFSET) {} };")
    code = b'#include "c.h"\n__global__ void k(int *o) { C c; o[0] = c.x; }\n'
    table = table_of(code, "/p/main.cu", {"/p/c.h": header})
    assert hazard(parse_file(code), table, [("/p/c.h", header)], _SEES_THE_BLOCK) == (
        "an operator, constructor or conversion of a class uses the macro OFFSET, which may see the block" + TAIL)
    reads = b"struct V { int x; __device__ V operator-() const { V r; r.x = -x - threadIdx.y; return r; } };"
    assert hazard(parse_file(code), table_of(code), [("/p/v.h", reads)], _SEES_THE_BLOCK) == (
        "the header's V::operator- uses threadIdx" + TAIL + " (in /p/v.h)")


@pytest.mark.parametrize("member, reached", [
    (b"r.v = v + (&o)[1].v;", "(&o)[1]"),
    (b"r.v = this[1].v;", "this[1]"),
    (b"r.v = *(&o.v + 1);", "*(&o.v + 1)"),
    (b"const Cell *p = &o; r.v = p->v;", "&o"),
])
def test_for_fusion_a_member_reaching_memory_beyond_its_operands_fields_is_a_hazard(member: bytes, reached: str):
    code = b"struct Cell { int v; __device__ Cell operator+(const Cell &o) const { Cell r; " + member + \
        b" return r; } };"
    assert hazard(parse_file(code), table_of(code), [], _HELPER_HAZARDS, memory=True) == \
        f"the file's Cell::operator+ reaches memory through {reached}" + TAIL


def test_for_fusion_fields_of_the_operands_and_this_are_not_memory_hazards():
    code = (b"struct Cell { int v; __device__ Cell operator+(const Cell &o) const { Cell r; r.v = v + o.v + "
            b"this->v; return r; } };")
    assert hazard(parse_file(code), table_of(code), [], _HELPER_HAZARDS, memory=True) is None
    atomic = b"struct A { int v; __device__ A &operator+=(int k) { atomicAdd(&v, k); return *this; } };"
    assert hazard(parse_file(atomic), table_of(atomic), [], _HELPER_HAZARDS, memory=True) == \
        "the file's A::operator+= uses atomicAdd" + TAIL


def test_host_only_members_cannot_run_in_a_kernel_and_are_not_hazards():
    # corpus/kernels/math_intrinsics.cu: a host checker's operator() calls fprintf; it
    # cost the kernel of that file its rebalancing until host code was told apart.
    code = (b"#include <cstdio>\nstruct Check { int bad = 0; void operator()(int i, float got) { "
            b"if (got != got) { fprintf(stderr, \"%d\\n\", i); ++bad; } } };\n"
            b"template <typename T> struct Box { T v; __host__ Box(T x) : v(x * 2) { printf(\"%d\", blockDim.x); } };")
    assert _block(code) is None
    device = code.replace(b"__host__ Box", b"__host__ __device__ Box")
    assert _block(device) == "the file's Box::Box uses blockDim" + TAIL
    assert _block(b"struct K { int v; constexpr K(int x) : v(x + warpSize) {} };") == \
        "the file's K::K uses warpSize" + TAIL
