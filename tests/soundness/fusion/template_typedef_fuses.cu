// soundness: must-apply
// why: a typedef of an arithmetic type, written out or deduced from a pointer to it, is that type
// edit: F001 "fused_produce_consume"
#include <cstdio>

typedef double real;

template <typename T>
__global__ void produce(const T* __restrict__ x, T* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] / T(3);
}

template <typename T>
__global__ void consume(const T* __restrict__ y, T* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] * T(3) + T(0.25);
}

int main()
{
    const int n = 1000;
    real *x, *y, *z, *w;
    cudaMallocManaged(&x, n * sizeof(real));
    cudaMallocManaged(&y, n * sizeof(real));
    cudaMallocManaged(&z, n * sizeof(real));
    cudaMallocManaged(&w, n * sizeof(real));
    for (int i = 0; i < n; ++i) x[i] = 1.0 + i;
    produce<real><<<(n + 255) / 256, 256>>>(x, y, n);
    consume<real><<<(n + 255) / 256, 256>>>(y, z, n);
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, w, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i) {
        double want = (1.0 + i) / 3.0 * 3.0 + 0.25;     // double arithmetic: T(0.25) is not truncated
        if (z[i] != want || w[i] != want) { printf("FAIL at %d: %.17g %.17g, not %.17g\n", i, z[i], w[i], want); return 1; }
    }
    printf("OK\n");
    return 0;
}
