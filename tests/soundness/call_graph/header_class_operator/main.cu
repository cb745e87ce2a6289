#include <cstdio>
#include "vec.cuh"

__global__ void k(const V *in, V *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + in[i];
}

int main()
{
    const int n = 1000;
    V *in, *out;
    cudaMallocManaged(&in, n * sizeof(V));
    cudaMallocManaged(&out, n * sizeof(V));
    for (int i = 0; i < n; ++i) in[i].x = i;
    k<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaDeviceSynchronize();
    for (int i = 0; i < n; ++i)
        if (out[i].x != 2 * i + i % 128) { printf("FAIL at %d: %d\n", i, out[i].x); return 1; }
    printf("OK\n");
    return 0;
}
