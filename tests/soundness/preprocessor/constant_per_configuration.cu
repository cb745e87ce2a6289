// soundness: must-refuse
// why: the constant differs between configurations
// no-edit: L001
// no-edit: L007
// expect: L002 "declared with different values"
#ifdef WIDE
const int kBlock = 1024;
#else
const int kBlock = 128;
#endif
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    scale<<<(n + kBlock - 1) / kBlock, kBlock>>>(x, n);
}
