// soundness: must-apply
// why: the chunks are passed as buf + offset, another spelling of &buf[offset]: each buffer is its own cudaMalloc, never reassigned, and offset does not change between the two launches, so the fused kernel reads and writes the same elements through the same pointers
// edit: F001 "fused_scale_add"
// output-has: "(x + offset, t + offset, chunk, y + offset);"
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(const float* x, float* t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) t[i] = 4.0f * x[i];
}

__global__ void add(const float* x, const float* t, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = t[i] + x[i] + 1.0f;
}

int main()
{
    const int n = 1 << 16, parts = 8;
    const int chunk = n / parts;
    float* h = new float[n];
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 31);
    float *x, *t, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&t, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
    for (int p = 0; p < parts; ++p) {
        const int offset = p * chunk;
        scale<<<(chunk + 255) / 256, 256>>>(x + offset, t + offset, chunk);
        add<<<(chunk + 255) / 256, 256>>>(x + offset, t + offset, y + offset, chunk);
    }
    cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float want = 5.0f * (float)(i % 31) + 1.0f;
        if (h[i] != want) {
            if (bad < 5) printf("FAIL at %d: %f, not %f\n", i, h[i], want);
            ++bad;
        }
    }
    cudaFree(x);
    cudaFree(t);
    cudaFree(y);
    delete[] h;
    if (bad) return 1;
    printf("OK\n");
    return 0;
}
