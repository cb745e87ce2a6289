// soundness: must-refuse
// why: TPB may be -DTPB=1024 on the compile line: 2 * TPB is no constant
// no-edit: L001
// no-edit: L007
// expect: L002 "may be redefined on the compile line"
#ifndef TPB
#define TPB 128
#endif
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    scale<<<(n + 2 * TPB - 1) / (2 * TPB), 2 * TPB>>>(x, n);
}
