// soundness: must-apply
// why: three __restrict__ parameters never reassigned are distinct by the caller's promise
// edit: F001 "fused_produce_consume"
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

void run(float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
}
