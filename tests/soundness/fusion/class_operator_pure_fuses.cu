// soundness: must-apply
// why: the class's operators and constructor read their operands' fields alone: each thread still touches only its own element
// edit: F001 "fused_produce_consume"
#include <cstdio>

struct Pair {
    int a, b;
    __device__ Pair() : a(0), b(1) {}
    __device__ Pair operator+(const Pair &o) const { Pair r; r.a = a + o.a; r.b = b * o.b; return r; }
};

__global__ void produce(const int* __restrict__ x, Pair* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { Pair p; p.a = x[i]; p.b = 2; y[i] = p; }
}

__global__ void consume(const Pair* __restrict__ y, Pair* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + y[i];
}

int main()
{
    const int n = 1 << 16;
    int *x;
    Pair *y, *z;
    cudaMallocManaged(&x, n * sizeof(int));
    cudaMallocManaged(&y, n * sizeof(Pair));
    cudaMallocManaged(&z, n * sizeof(Pair));
    for (int i = 0; i < n; ++i) x[i] = i + 1;
    produce<<<(n + 255) / 256, 256>>>(x, y, n);
    consume<<<(n + 255) / 256, 256>>>(y, z, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (z[i].a != 2 * (i + 1) || z[i].b != 4) { printf("FAIL at %d: %d %d\n", i, z[i].a, z[i].b); return 1; }
    printf("OK\n");
    return 0;
}
