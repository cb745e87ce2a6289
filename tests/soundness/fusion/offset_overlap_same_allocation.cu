// soundness: must-refuse
// why: &a[offset] and &a[offset + 1] point into one allocation one element apart: consume's thread i reads a[offset + i + 1], which produce's thread i + 1 writes; one after another every write is done first, fused a thread may read the element before its neighbour (in another block) has written it
// no-edit: F001
// expect: F002 "both point into 'a', which one allocation of this function sets: at different offsets they may overlap"
#include <cstdio>
#include <cuda_runtime.h>

__global__ void produce(const float* src, float* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = 2.0f * src[i];
}

__global__ void consume(const float* a, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + 1.0f;
}

int main()
{
    const int n = 1 << 16, parts = 2;
    const int chunk = n / parts;
    float* h = new float[n + 1];
    for (int i = 0; i <= n; ++i) h[i] = -1.0f;
    float *src, *a, *out;
    cudaMalloc(&src, n * sizeof(float));
    cudaMalloc(&a, (n + 1) * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(a, h, (n + 1) * sizeof(float), cudaMemcpyHostToDevice);
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 23);
    cudaMemcpy(src, h, n * sizeof(float), cudaMemcpyHostToDevice);
    for (int p = 0; p < parts; ++p) {
        const int offset = p * chunk;
        produce<<<(chunk + 255) / 256, 256>>>(&src[offset], &a[offset], chunk);
        consume<<<(chunk + 255) / 256, 256>>>(&a[offset + 1], &out[offset], chunk);
    }
    cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        // out[i] = a[i + 1] + 1: a[i + 1] was written unless it starts the next chunk (or is a[n])
        bool written = (i + 1) % chunk != 0;
        float want = (written ? 2.0f * (float)((i + 1) % 23) : -1.0f) + 1.0f;
        if (h[i] != want) {
            if (bad < 5) printf("FAIL at %d: %f, not %f\n", i, h[i], want);
            ++bad;
        }
    }
    cudaFree(src);
    cudaFree(a);
    cudaFree(out);
    delete[] h;
    if (bad) return 1;
    printf("OK\n");
    return 0;
}
