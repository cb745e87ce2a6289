// soundness: must-refuse
// why: block.x = 64, then p->x = 256 through `dim3 *p = &block`: the launch is 256 threads, a bound of 64 fails it
// no-edit: L001
// no-edit: L007
// expect: L002 "the address of 'block' is taken"
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
    block.x = 64;
    dim3* p = &block;
    p->x = 256;
    scale<<<(n + 255) / 256, block>>>(x, n);
    if (launched("scale")) return 1;
    if (check("scale", x, n, 2.0f)) return 1;
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
