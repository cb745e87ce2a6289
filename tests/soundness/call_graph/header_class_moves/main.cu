#include <cstdio>
#include "pair.cuh"

__global__ void k(const Pair *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Pair one;
        out[i] = in[i] + one;
    }
}

int main()
{
    const int n = 1000;
    Pair *in;
    int *out;
    cudaMallocManaged(&in, n * sizeof(Pair));
    cudaMallocManaged(&out, n * sizeof(int));
    for (int i = 0; i < n; ++i) { in[i].a = i; in[i].b = 1; }
    k<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i] != (i + 1) * (2 + 3)) { printf("FAIL at %d: %d\n", i, out[i]); return 1; }
    printf("OK\n");
    return 0;
}
