// soundness: must-refuse
// why: the first kernel uses shared memory and a barrier: its threads cooperate, so no chain can start at it
// no-edit: F001
// expect: F002 "first is not elementwise: it uses shared memory"
__global__ void first(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ float s[256]; s[threadIdx.x] = x[i]; __syncthreads(); if (i < n) y[i] = s[255 - threadIdx.x];
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
