// soundness: must-refuse
// why: b.x = 256 after dim3 b(1, 1, 1): a bound of 1 makes every launch fail
// no-edit: L001
// no-edit: L007
// expect: L002 "'b.x' is assigned (=)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    dim3 b(1, 1, 1);
    b.x = 256;
    scale<<<(n + 255) / 256, b>>>(x, n);
}
