// soundness: must-refuse
// why: a helper of the second kernel calls a function declared but not defined here, which may read the first kernel's output at another index
// no-edit: F001
// expect: F002 "makes a call cu2hip cannot follow"
extern __device__ float ext(float v);
__device__ float helper(float v) { return ext(v) + 1.0f; }
__global__ void first(float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

__global__ void second(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = helper(y[i]);
}

void run(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    first<<<(n + 255) / 256, 256>>>(x, y, n);
    second<<<(n + 255) / 256, 256>>>(y, z, n);
}
