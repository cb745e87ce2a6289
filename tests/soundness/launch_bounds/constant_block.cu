// soundness: must-apply
// why: every launch of the kernel uses a constant 256-thread block, so 256 bounds it
// edit: L001 "__launch_bounds__(256)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

void run(float* x, int n)
{
    scale<<<(n + 255) / 256, 256>>>(x, n);
}
