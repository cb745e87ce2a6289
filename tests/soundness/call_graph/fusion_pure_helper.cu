// soundness: must-apply
// why: both kernels are elementwise and the helper they call is known and pure: fusing them computes the same values
// edit: F001 "fused_first_second"
__device__ float twice(float v) { return 2.0f * v; }
__global__ void first(float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = twice(x[i]);
}

__global__ void second(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = twice(y[i]) + 1.0f;
}

void run(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    first<<<(n + 255) / 256, 256>>>(x, y, n);
    second<<<(n + 255) / 256, 256>>>(y, z, n);
}
