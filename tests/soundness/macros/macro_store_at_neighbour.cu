// soundness: must-refuse
// why: STORE writes y one element ahead: the consumer reads what another thread writes
// no-edit: F001
// expect: F002 "the macro STORE"
#include <cstdio>
#define STORE y[(i + 1) % n] = 2.0f * x[i]
__global__ void produce(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) STORE;
}

__global__ void consume(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + 1.0f;
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
        float want = 2.0f * (float)(((i + 999) % 1000) % 17) + 1.0f;
        if (z[i] != want) { printf("FAIL at %d: %f, not %f\n", i, z[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
