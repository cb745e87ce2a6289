// soundness: must-apply
// why: each loop's counter doubles from 64 up to its bound (two loops, one name each): the bound is the largest, 1024
// edit: L001 "__launch_bounds__(1024)"
#include <cstdio>
#define MAX_BLOCK_SIZE 1024
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

static int check(const char* what, float* x, int n, float factor)
{
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) { printf("FAIL: %s: %s\n", what, cudaGetErrorString(err)); return 1; }
    for (int i = 0; i < n; ++i)
        if (x[i] != factor * i) { printf("FAIL: %s at %d: %f\n", what, i, x[i]); return 1; }
    return 0;
}

static int launched(const char* what)
{
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) { printf("FAIL: %s: %s\n", what, cudaGetErrorString(err)); return 1; }
    return 0;
}

int main()
{
    const int n = 5000;
    float* x = nullptr;
    cudaMallocManaged(&x, n * sizeof(float));
    for (int i = 0; i < n; ++i) x[i] = (float)i;
    for (int bs = 64; bs <= 256; bs = bs * 2) {
        dim3 grids((n + bs - 1) / bs);
        dim3 blocks(bs);
        scale<<<grids, blocks>>>(x, n);
        if (launched("scale")) return 1;
        cudaDeviceSynchronize();
    }
    for (int bs = 64; bs <= MAX_BLOCK_SIZE; bs = bs * 2) {
        dim3 grids((n + bs - 1) / bs);
        dim3 blocks(bs);
        scale<<<grids, blocks>>>(x, n);
        if (launched("scale")) return 1;
        cudaDeviceSynchronize();
    }
    if (check("scale", x, n, 256.0f)) return 1;
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
