// soundness: must-refuse
// why: a function-like macro assigns its argument
// no-edit: L001
// no-edit: L007
// expect: L002 "passed to the macro READ_BLOCK, whose body may write it"
#include <cstdlib>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


#define READ_BLOCK(v) ((v) = getenv("BLOCK") ? atoi(getenv("BLOCK")) : (v))

void run(float* x, int n)
{
    int threads = 128;
    READ_BLOCK(threads);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
