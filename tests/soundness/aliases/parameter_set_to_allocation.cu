// soundness: must-refuse
// why: x is a parameter reassigned to y + 1 after y's allocation, so the fresh allocation y and x overlap; fused, thread i reads x[i] = y[i + 1] after thread i + 1 may have written it
// no-edit: F001
// expect: F002 "'x' is assigned"
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

void run(float* x, float* z, int n)
{
    float* y;
    cudaMalloc(&y, (n + 1) * sizeof(float));
    x = y + 1;
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
    cudaFree(y);
}
