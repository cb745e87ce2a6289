// soundness: must-refuse
// why: std::tie assigns through references to threads
// no-edit: L001
// no-edit: L007
// expect: L002 "passed to std::tie"
#include <tuple>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 128, blocks = 0;
    std::tie(threads, blocks) = std::make_tuple(1024, 4);
    scale<<<blocks, threads>>>(x, n);
}
