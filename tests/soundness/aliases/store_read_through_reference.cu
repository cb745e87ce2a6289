// soundness: must-apply
// why: a const reference to y outlives the chain and is read: y's store is not dead
// edit: F001 "fused_produce_consume"
// edit: F001 "y[i] = y_v;"
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

void run(const float* h, float* out, int n)
{
    float *x, *y, *z;
    cudaMalloc(&x, (n + 1) * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&z, n * sizeof(float));
    cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
    float* const& kept = y;
    cudaMemcpy(out + n, kept, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(out, z, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
}
