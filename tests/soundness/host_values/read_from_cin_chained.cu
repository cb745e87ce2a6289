// soundness: must-refuse
// why: the second operand of a chained extraction is written too
// no-edit: L001
// no-edit: L007
// expect: L002 "read into by `>>`"
#include <iostream>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x)
{
    int n = 0, threads = 128;
    std::cin >> n >> threads;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
