// soundness: must-apply
// why: block.x is 512 only when n > 1000, else dim3's default 1: the bound is the largest, 512 (a bound of 1 would fail the launch); moving the launch would need the one value
// edit: L001 "__launch_bounds__(512)"
// no-edit: L007
#include <cstdio>
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
    dim3 block;
    if (n > 1000) block.x = 512;
    scale<<<(n + block.x - 1) / block.x, block>>>(x, n);
    if (launched("scale")) return 1;
    if (check("scale", x, n, 2.0f)) return 1;
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
