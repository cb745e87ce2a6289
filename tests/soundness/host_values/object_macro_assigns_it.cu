// soundness: must-refuse
// why: an object-like macro of the file sets threads to 512 where no token of main names it: a bound of its initializer, 128, fails the launch
// no-edit: L001
// no-edit: L007
// expect: L002 "the macro WIDEN_BLOCK names 'threads' and may write it"
#include <cstdio>
#define WIDEN_BLOCK threads = 512
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
    int threads = 128;
    WIDEN_BLOCK;
    scale<<<(n + threads - 1) / threads, threads>>>(x, n);
    if (launched("scale")) return 1;
    if (check("scale", x, n, 2.0f)) return 1;
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
