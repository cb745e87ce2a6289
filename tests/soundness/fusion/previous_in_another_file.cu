// soundness: must-refuse
// why: the first kernel is only declared in this file: its body, in another translation unit, is not known
// no-edit: F001
// expect: F002 "its definition is not in this file"
__global__ void first(const float* __restrict__ x, float* __restrict__ y, int n);

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
