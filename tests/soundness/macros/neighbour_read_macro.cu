// soundness: must-refuse
// why: Y_NEXT reads y at the next element, which another thread of the fused kernel writes
// no-edit: F001
// expect: F002 "the macro Y_NEXT"
#include <cstdio>
#define Y_NEXT y[(i + 1) % n]
__global__ void produce(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

__global__ void consume(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + Y_NEXT;
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
        float want = 2.0f * (float)(i % 17) + 2.0f * (float)(((i + 1) % 1000) % 17);
        if (z[i] != want) { printf("FAIL at %d: %f, not %f\n", i, z[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
