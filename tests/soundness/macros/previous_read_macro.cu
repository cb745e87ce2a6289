// soundness: must-refuse
// why: PREV reads the previous element of y
// no-edit: F001
// expect: F002 "the macro PREV"
#include <cstdio>
#define PREV y[i > 0 ? i - 1 : 0]
__global__ void produce(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + 1.0f;
}

__global__ void consume(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = PREV;
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
        float want = (float)((i > 0 ? i - 1 : 0) % 17) + 1.0f;
        if (z[i] != want) { printf("FAIL at %d: %f, not %f\n", i, z[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
