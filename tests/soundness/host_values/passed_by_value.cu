// soundness: must-apply
// why: a function taking int by value cannot change the caller's threads
// options: --no-rebalance
// edit: L001 "__launch_bounds__(128)"
#include <cstdio>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void log_size(int t) { printf("%d\n", t); }

void run(float* x, int n)
{
    int threads = 128;
    log_size(threads);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
