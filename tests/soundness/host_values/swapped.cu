// soundness: must-refuse
// why: std::swap exchanges threads with a 1024
// no-edit: L001
// no-edit: L007
// expect: L002 "passed to std::swap"
#include <utility>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 128, wide = 1024;
    std::swap(threads, wide);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
