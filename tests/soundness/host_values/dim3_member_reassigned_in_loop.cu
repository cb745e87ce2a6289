// soundness: must-apply
// why: the launch in the loop runs with 64 threads, then, after block.x = 256 at the end of the first pass, with 256: the bound is the largest, 256
// edit: L001 "__launch_bounds__(256)"
// output-lacks: "__launch_bounds__(64)"
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
    block.x = 64;
    for (int pass = 0; pass < 2; ++pass) {
        int half = pass == 0 ? 0 : n / 2, count = pass == 0 ? n / 2 : n - n / 2;
        scale<<<(count + block.x - 1) / block.x, block>>>(x + half, count);
        if (launched("scale")) return 1;
        block.x = 256;
    }
    if (check("scale", x, n, 2.0f)) return 1;
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
