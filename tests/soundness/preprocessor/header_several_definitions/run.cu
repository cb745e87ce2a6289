#include <cstdio>
#include "config.h"

__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

int main()
{
    const int n = 5000;
    float* x = nullptr;
    cudaMallocManaged(&x, n * sizeof(float));
    for (int i = 0; i < n; ++i) x[i] = (float)i;
    scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err)); return 1; }
    for (int i = 0; i < n; ++i)
        if (x[i] != 2.0f * i) { printf("FAIL at %d: %f\n", i, x[i]); return 1; }
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
