// soundness: must-refuse
// why: b = dim3(512) replaces the 64-thread block the declaration gave
// no-edit: L001
// no-edit: L007
// expect: L002 "'b' is assigned (=)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n, bool wide)
{
    dim3 b(64);
    if (wide) b = dim3(512);
    scale<<<(n + 63) / 64, b>>>(x, n);
}
