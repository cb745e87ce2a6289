// soundness: must-refuse
// why: memcpy fills threads from a buffer at run time
// no-edit: L001
// no-edit: L007
// expect: L002 "the address of 'threads' is taken"
#include <cstring>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n, const char* config)
{
    int threads = 128;
    memcpy(&threads, config, sizeof threads);
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
}
