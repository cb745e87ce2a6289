// soundness: must-refuse
// why: a function of this file stores the buffer in a global that a later cudaMemcpyAsync copies from, and the host overwrites the buffer right after: from pageable memory that copy is staged before it returns; pinned, it would be a DMA racing the overwrite
// no-edit: R007
// expect: R008 "'g_last = a' stores or overwrites it"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }
static float* g_last = nullptr;
static void remember(float* a) { g_last = a; }
static void upload(float* d, int n, cudaStream_t s) { cudaMemcpyAsync(d, g_last, n * sizeof(float), cudaMemcpyHostToDevice, s); }
int main()
{
    const int n = 1 << 22;
    float* h = (float*)malloc(n * sizeof(float));
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreate(&s);
    remember(h);
    int bad = 0;
    for (int it = 0; it < 4; ++it) {
        for (int i = 0; i < n; ++i) h[i] = (float)it;
        upload(d, n, s);
        for (int i = 0; i < n; ++i) h[i] = -1.0f;
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        cudaStreamSynchronize(s);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; i += 4096) bad += h[i] != 2.0f * it;
    }
    free(h);
    cudaFree(d);
    cudaStreamDestroy(s);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
