// soundness: must-refuse
// why: the bases are run's parameters, and main passes one buffer as both a and b: &a[offset] and &b[offset] are one pointer; one after another twice reads the a that bump wrote, fused it would read a as it was before
// no-edit: F001
// expect: F002 "which is not a local that one allocation of this function sets: where it points is not known"
#include <cstdio>
#include <cuda_runtime.h>

__global__ void bump(const float* a, float* b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i] + 1.0f;
}

__global__ void twice(const float* a, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = 2.0f * a[i];
}

void run(const float* a, float* b, float* c, int chunk, int parts)
{
    for (int p = 0; p < parts; ++p) {
        const int offset = p * chunk;
        bump<<<(chunk + 255) / 256, 256>>>(&a[offset], &b[offset], chunk);
        twice<<<(chunk + 255) / 256, 256>>>(&a[offset], &c[offset], chunk);
    }
}

int main()
{
    const int n = 1 << 15, parts = 4;
    float* h = new float[n];
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 29);
    float *d, *c;
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    run(d, d, c, n / parts, parts);
    cudaMemcpy(h, c, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float want = 2.0f * ((float)(i % 29) + 1.0f);
        if (h[i] != want) {
            if (bad < 5) printf("FAIL at %d: %f, not %f\n", i, h[i], want);
            ++bad;
        }
    }
    cudaFree(d);
    cudaFree(c);
    delete[] h;
    if (bad) return 1;
    printf("OK\n");
    return 0;
}
