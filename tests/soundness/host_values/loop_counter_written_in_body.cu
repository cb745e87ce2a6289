// soundness: must-refuse
// why: the body sets the counter to 512 after its first step: the loop's own values (32 to 128) would give a bound of 128
// no-edit: L001
// no-edit: L007
// expect: L002 "'bs' is assigned (=)"
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
    int passes = 0;
    for (int bs = 32; bs <= 128; bs *= 2) {
        if (bs == 64) bs = 512;
        scale<<<(n + bs - 1) / bs, bs>>>(x, n);
        if (launched("scale")) return 1;
        cudaDeviceSynchronize();
        ++passes;
    }
    if (passes != 2) { printf("FAIL: %d passes\n", passes); return 1; }
    if (check("scale", x, n, 4.0f)) return 1;
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
