// soundness: must-refuse
// why: a host function between the launches may synchronize, launch or touch the buffers
// no-edit: F001
// expect: F002 "a call of touch between the launches"
void touch(float* p);
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
    touch(y);
    second<<<(n + 255) / 256, 256>>>(y, z, n);
}
