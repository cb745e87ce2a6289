// soundness: must-refuse
// why: two pointer parameters without __restrict__ may be the same buffer shifted (run(a, a + 1, ...))
// no-edit: F001
// expect: F002 "not provably distinct allocations"
__global__ void produce(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

__global__ void consume(const float* y, float* z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + 1.0f;
}

void run(float* x, float* y, float* z, int n)
{
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
}
