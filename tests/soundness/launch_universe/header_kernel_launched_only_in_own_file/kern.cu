#include "kern.h"
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i];
}
void run_scale(float *x, int n)
{
    scale<<<(n + 127) / 128, 128>>>(x, n);
}
