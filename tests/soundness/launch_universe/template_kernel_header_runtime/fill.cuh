#pragma once
template <typename T>
__global__ void fill(T* x, T v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = v;
}
