// soundness: must-apply
// why: the kernel's local `scale` hides the kernel: it is no use of the kernel, whose only launch has 256 threads
// options: --no-rebalance
// edit: L001 "__launch_bounds__(256)"
__global__ void scale(float* x, int n)
{
    float scale = 2.0f;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= scale;
}

void apply(float* __restrict__ scale, int n)
{
    for (int i = 0; i < n; i++) scale[i] = 1.0f;
}

void run(float* x, int n)
{
    scale<<<(n + 255) / 256, 256>>>(x, n);
}
