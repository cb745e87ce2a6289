#pragma once
#define SCALE 3
__device__ inline int twice(int v) { return 2 * v; }
struct Pair
{
    int a, b;
    __device__ Pair() : a(1), b(SCALE) {}
    __device__ Pair operator+(const Pair &o) const { Pair r; r.a = a + o.a; r.b = twice(b) + o.b; return r; }
    __device__ operator int() const { return a * b; }
};
