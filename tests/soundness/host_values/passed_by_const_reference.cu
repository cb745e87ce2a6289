// soundness: must-apply
// why: a const reference cannot write threads
// options: --no-rebalance
// edit: L001 "__launch_bounds__(512)"
#include <cstdio>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void show(const int& t) { printf("%d\n", t); }

void run(float* x, int n)
{
    int threads = 512;
    show(threads);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
