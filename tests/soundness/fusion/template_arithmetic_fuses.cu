// soundness: must-apply
// why: a template kernel launched with an arithmetic type is its body with that type written out
// edit: F001 "fused_produce_consume"
#include <cstdio>

template <typename T>
__global__ void produce(const T* __restrict__ x, T* __restrict__ y, T a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + T(1);
}

template <typename T>
__global__ void consume(const T* __restrict__ y, T* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { T t = static_cast<T>(y[i] / T(3)); z[i] = t - T(2); }
}

int main()
{
    const int n = 1000;
    int *x, *y, *z;
    cudaMallocManaged(&x, n * sizeof(int));
    cudaMallocManaged(&y, n * sizeof(int));
    cudaMallocManaged(&z, n * sizeof(int));
    for (int i = 0; i < n; ++i) x[i] = i % 17;
    produce<int><<<(n + 255) / 256, 256>>>(x, y, 5, n);
    consume<int><<<(n + 255) / 256, 256>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        int want = (5 * (i % 17) + 1) / 3 - 2;     // integer division: T is int, not float
        if (y[i] != 5 * (i % 17) + 1 || z[i] != want) {
            printf("FAIL at %d: %d %d, not %d\n", i, y[i], z[i], want);
            return 1;
        }
    }
    printf("OK\n");
    return 0;
}
