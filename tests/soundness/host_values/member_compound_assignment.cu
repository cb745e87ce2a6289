// soundness: must-refuse
// why: b.x *= 4 makes the block 256 threads, not the 64 it was declared with
// no-edit: L001
// no-edit: L007
// expect: L002 "'b.x' is assigned (*=)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    dim3 b(64);
    b.x *= 4;
    scale<<<(n + 255) / 256, b>>>(x, n);
}
