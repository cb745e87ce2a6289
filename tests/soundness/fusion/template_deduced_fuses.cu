// soundness: must-apply
// why: the launches deduce T from float pointers: T is float, as if written out
// edit: F001 "fused_produce_consume"
#include <cstdio>

template <typename T>
__global__ void produce(const T* __restrict__ x, T* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * T(2);
}

template <typename T>
__global__ void consume(const T* __restrict__ y, T* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + T(1);
}

int main()
{
    const int n = 1000;
    float *x, *y, *z;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    cudaMallocManaged(&z, n * sizeof(float));
    for (int i = 0; i < n; ++i) x[i] = (float)(i % 13);
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        float want = (float)(i % 13) * 2.0f + 1.0f;
        if (z[i] != want) { printf("FAIL at %d: %f, not %f\n", i, z[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
