// soundness: must-refuse
// why: z is allocated twice; the analysis cannot say which allocation each use sees, nor that an earlier value is not also x + 1
// no-edit: F001
// expect: F002 "allocated 2 times"
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
    cudaFree(z);
    cudaMalloc(&z, n * sizeof(float));
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
    cudaMemcpy(out, z, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
}
