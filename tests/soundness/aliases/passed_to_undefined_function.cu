// soundness: must-refuse
// why: alias_into is declared only: it may take z by reference and point it into x: fused, thread i writes x[i + 1] (through z) before thread i + 1 has read x[i + 1] for produce, which the two launches one after another never do
// no-edit: F001
// expect: F002 "passed to alias_into"
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

void alias_into(float*& p, float* q);

void run(const float* h, float* out, int n)
{
    float *x, *y, *z;
    cudaMalloc(&x, (n + 1) * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&z, n * sizeof(float));
    cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
    alias_into(z, x);
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
    cudaMemcpy(out, z, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
}
