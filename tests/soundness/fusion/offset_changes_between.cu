// soundness: must-refuse
// why: offset changes between the two launches: consume reads the chunk of t at the mirrored offset, which produce wrote in an earlier iteration or has not written yet; one fused launch would pass a single offset to both bodies and read its own element's fresh value instead
// no-edit: F001
// expect: F002 "'offset', an argument of the launch of produce, is modified between the launches"
#include <cstdio>
#include <cuda_runtime.h>

__global__ void produce(const float* x, float* t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) t[i] = 2.0f * x[i];
}

__global__ void consume(const float* t, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = t[i] + 1.0f;
}

int main()
{
    const int n = 1 << 15, parts = 4;
    const int chunk = n / parts;
    float* h = new float[n];
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 17);
    float *x, *t, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&t, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(t, 0, n * sizeof(float));
    int offset;
    for (int p = 0; p < parts; ++p) {
        offset = p * chunk;
        produce<<<(chunk + 255) / 256, 256>>>(&x[offset], &t[offset], chunk);
        offset = (parts - 1 - p) * chunk;
        consume<<<(chunk + 255) / 256, 256>>>(&t[offset], &y[offset], chunk);
    }
    cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int part = i / chunk;                     // read in iteration parts - 1 - part
        bool written = part <= parts - 1 - part;  // produce wrote it in iteration part
        float want = (written ? 2.0f * (float)(i % 17) : 0.0f) + 1.0f;
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
