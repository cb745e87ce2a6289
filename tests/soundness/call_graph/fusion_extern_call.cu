// soundness: must-refuse
// why: the second kernel calls an extern function that may read or write any memory (the chain's buffer y, through a global), so running both bodies in one thread changes the order of effects
// no-edit: F001
// expect: F002 "cannot follow"
extern __device__ float ext(float v);
__global__ void first(float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

__global__ void second(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = ext(y[i]);
}

void run(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    first<<<(n + 255) / 256, 256>>>(x, y, n);
    second<<<(n + 255) / 256, 256>>>(y, z, n);
}
