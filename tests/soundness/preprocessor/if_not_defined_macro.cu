// soundness: must-refuse
// why: #if !defined(BS) is #ifndef BS: BS + 64 depends on the compile line
// no-edit: L001
// no-edit: L007
// expect: L002 "may be redefined on the compile line"
#if !defined(BS)
#define BS 64
#endif
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    scale<<<(n + BS + 63) / (BS + 64), BS + 64>>>(x, n);
}
