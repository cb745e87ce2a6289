// soundness: must-refuse
// why: the first kernel calls through a __device__ function pointer whose target may touch other elements
// no-edit: F001
// expect: F002 "cannot follow"
typedef float (*op_t)(float);
__device__ float twice(float v) { return 2.0f * v; }
__device__ op_t d_op = twice;
__global__ void first(float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = d_op(x[i]);
}

__global__ void second(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + 1.0f;
}

void run(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    first<<<(n + 255) / 256, 256>>>(x, y, n);
    second<<<(n + 255) / 256, 256>>>(y, z, n);
}
