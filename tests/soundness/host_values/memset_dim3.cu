// soundness: must-refuse
// why: memset overwrites the dim3 (its bytes 0x04040404 are no block size of 128)
// no-edit: L001
// no-edit: L007
// expect: L002 "the address of 'b' is taken"
#include <cstring>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    dim3 b(128);
    memset(&b, 4, sizeof b);
    scale<<<(n + 127) / 128, b>>>(x, n);
}
