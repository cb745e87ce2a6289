// soundness: must-refuse
// why: the buffer is released by a function of this file (release() calls free): made pinned, free() would be given cudaMallocHost memory
// no-edit: R007
// expect: R008 "release (line 11) frees 'a'"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2.0f; }
static void init(float* a, int n) { for (int i = 0; i < n; ++i) a[i] = 1.0f; }
static float first(const float* a) { return a[0]; }
static void release(float* a) { free(a); }
int main()
{
    const int n = 1 << 18;
    float* h = (float*)malloc(n * sizeof(float));
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    init(h, n);
    for (int it = 0; it < 3; ++it) {
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    }
    float got = first(h);
    release(h);
    cudaFree(d);
    if (got != 8.0f) { printf("FAIL: %f\n", got); return 1; }
    printf("PASS\n");
    return 0;
}
