// soundness: must-refuse
// why: ++b.x in a loop grows the block past the initializer's 128
// no-edit: L001
// no-edit: L007
// expect: L002 "'b.x' is incremented or decremented"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    dim3 b(128);
    while (b.x < 512) ++b.x;
    scale<<<(n + 511) / 512, b>>>(x, n);
}
