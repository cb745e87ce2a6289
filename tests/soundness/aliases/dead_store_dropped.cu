// soundness: must-apply
// why: y is a local nothing reads after the chain but its cudaFree: its store is dead and dropped
// edit: F001 "fused_produce_consume"
// edit: F001 "(void)y_v;      // dead: not stored"
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
    cudaMemcpy(out, z, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
}
