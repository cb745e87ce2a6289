// soundness: must-apply
// why: two elementwise kernels on __restrict__ buffers with equal launches: one thread doing both bodies computes the same values
// edit: F001 "fused_first_second"
__global__ void first(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

__global__ void second(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + 1.0f;
}

void run(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    first<<<(n + 255) / 256, 256>>>(x, y, n);
    second<<<(n + 255) / 256, 256>>>(y, z, n);
}
