// soundness: must-apply
// why: static_cast<float> is a value cast, not a call
// edit: F001 "fused_produce_consume"
#include <cstdio>

__global__ void produce(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = static_cast<float>(static_cast<int>(x[i]) * 2);
}

__global__ void consume(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + static_cast<float>(1);
}

int main()
{
    const int n = 1000;
    float *x, *y, *z;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    cudaMallocManaged(&z, n * sizeof(float));
    for (int i = 0; i < n; ++i) x[i] = (float)(i % 17);
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        float want = (float)(i % 17) * 2.0f + 1.0f;
        if (z[i] != want) { printf("FAIL at %d: %f, not %f\n", i, z[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
