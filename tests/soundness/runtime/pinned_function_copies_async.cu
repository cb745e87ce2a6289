// soundness: must-refuse
// why: a function of this file copies the buffer with cudaMemcpyAsync and the caller overwrites it at once: from pageable memory the copy has read it before it returns; pinned, the copy would race the overwrite and upload -1
// no-edit: R007
// expect: R008 "upload (line 9) copies 'a' asynchronously"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }
static void upload(float* d, const float* a, int n, cudaStream_t s) { cudaMemcpyAsync(d, a, n * sizeof(float), cudaMemcpyHostToDevice, s); }
int main()
{
    const int n = 1 << 22;
    float* h = (float*)malloc(n * sizeof(float));
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreate(&s);
    int bad = 0;
    for (int it = 0; it < 4; ++it) {
        for (int i = 0; i < n; ++i) h[i] = (float)it;
        upload(d, h, n, s);
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
