// soundness: must-refuse
// why: dim3 b(T) is a variable, and T, a local, is doubled first
// no-edit: L001
// no-edit: L007
// expect: L002 "'T' is assigned (*=)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int T = 128;
    T *= 8;
    dim3 b(T);
    scale<<<(n + 1023) / 1024, b>>>(x, n);
}
