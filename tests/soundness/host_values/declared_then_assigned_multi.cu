// soundness: must-apply
// why: HeCBench's haccmk declares its sizes together with no value and assigns them after (`int n, threads, i; n = 5000; threads = 256;`): each first assignment is a statement of the declaration's block, before the launch, so on every path the block is 256 there; the bound is 256
// edit: L001 "__launch_bounds__(256)"
// no-edit: L007
#include <cstdio>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

int main()
{
    int n, threads, i;
    n = 5000;
    threads = 256;
    float *x, *unused;
    unused = nullptr;
    cudaMallocManaged(&x, n * sizeof(float));
    for (i = 0; i < n; ++i) x[i] = (float)i;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err)); return 1; }
    for (i = 0; i < n; ++i)
        if (x[i] != 2.0f * i) { printf("FAIL at %d: %f\n", i, x[i]); return 1; }
    cudaFree(x);
    printf("PASS%s\n", unused == nullptr ? "" : "?");
    return 0;
}
