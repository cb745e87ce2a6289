// soundness: must-refuse
// why: a launch of TPB and one of 256: with -DTPB=64 the bound TPB fails the 256
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
    scale<<<(n + TPB - 1) / TPB, TPB>>>(x, n);
    scale<<<(n + 255) / 256, 256>>>(x, n);
}
