#pragma once
struct V
{
    int x;
    __device__ int lane() const { return (int)threadIdx.x; }
    __device__ V operator+(const V &o) const { V r; r.x = x + o.x + lane(); return r; }
};
