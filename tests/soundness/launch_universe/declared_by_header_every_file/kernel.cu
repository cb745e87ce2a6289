#include "scale.h"

__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

void a(float* x, int n) { scale<<<n / 64, 64>>>(x, n); }
