// soundness: must-refuse
// why: y is set by its cudaMalloc, then made x (in place): &x[offset] and &y[offset] are one pointer; one after another double reads the x that bump wrote, fused it would read x as it was before
// no-edit: F001
// expect: F002 "'y' is assigned or its address taken in main"
#include <cstdio>
#include <cuda_runtime.h>

__global__ void bump(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + 1.0f;
}

__global__ void twice(const float* x, float* z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = 2.0f * x[i];
}

int main(int argc, char** argv)
{
    const int n = 1 << 15, parts = 4;
    const int chunk = n / parts;
    const bool in_place = argc < 100;
    float* h = new float[n];
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 19);
    float *x, *y, *z;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&z, n * sizeof(float));
    if (in_place) {
        cudaFree(y);
        y = x;
    }
    cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
    for (int p = 0; p < parts; ++p) {
        const int offset = p * chunk;
        bump<<<(chunk + 255) / 256, 256>>>(&x[offset], &y[offset], chunk);
        twice<<<(chunk + 255) / 256, 256>>>(&x[offset], &z[offset], chunk);
    }
    cudaMemcpy(h, z, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float want = 2.0f * ((float)(i % 19) + 1.0f);
        if (h[i] != want) {
            if (bad < 5) printf("FAIL at %d: %f, not %f\n", i, h[i], want);
            ++bad;
        }
    }
    cudaFree(x);
    cudaFree(z);
    delete[] h;
    if (bad) return 1;
    printf("OK\n");
    return 0;
}
