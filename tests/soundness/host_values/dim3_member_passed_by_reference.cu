// soundness: must-refuse
// why: widen(block) sets block.x to 512 through its reference: a bound of the 64 assigned before would fail the launch
// no-edit: L001
// no-edit: L007
// expect: L002 "passed to widen, whose parameter 1 is a non-const reference"
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

static void widen(dim3& d) { d.x = 512; }

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
    block.x = 64;
    widen(block);
    scale<<<(n + 511) / 512, block>>>(x, n);
    if (launched("scale")) return 1;
    if (check("scale", x, n, 2.0f)) return 1;
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
