// soundness: must-refuse
// why: a function the counter is passed to by reference widens it to 512: a bound of the loop's values, 64, fails
// no-edit: L001
// no-edit: L007
// expect: L002 "whose parameter 1 is a non-const reference"
#include <cstdio>
static void adjust(int& b) { if (b == 64) b = 512; }
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
    for (int bs = 32; bs <= 64; bs *= 2) {
        adjust(bs);
        scale<<<(n + bs - 1) / bs, bs>>>(x, n);
        if (launched("scale")) return 1;
        cudaDeviceSynchronize();
    }
    if (check("scale", x, n, 4.0f)) return 1;
    cudaFree(x);
    printf("PASS\n");
    return 0;
}
