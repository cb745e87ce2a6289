// soundness: must-apply
// why: printf and a shift read threads without writing it
// options: --no-rebalance
// edit: L001 "__launch_bounds__(384)"
#include <cstdio>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 384;
    int half = threads >> 1;
    printf("%d %d\n", threads, half);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
