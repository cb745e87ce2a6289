// soundness: must-refuse
// why: std::cin >> threads reads the block size at run time
// no-edit: L001
// no-edit: L007
// expect: L002 "read into by `>>`"
#include <iostream>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 128;
    std::cin >> threads;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
