// soundness: must-refuse
// why: memcpy fills the dim3 from a buffer
// no-edit: L001
// no-edit: L007
// expect: L002 "the address of 'b' is taken"
#include <cstring>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n, const unsigned* dims)
{
    dim3 b(128);
    memcpy(&b, dims, sizeof b);
    scale<<<(n + 127) / 128, b>>>(x, n);
}
