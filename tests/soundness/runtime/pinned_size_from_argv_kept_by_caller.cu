// soundness: must-refuse
// why: the size comes from argv (decided at run time), but the buffer is returned to main, which frees it with free(): allocated pinned, free() would meet memory cudaMallocHost gave
// no-edit: R007
// expect: R008 "'h' is returned"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void add(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.0f; }
float* counted(float* d, int n)
{
    float* h = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 5);
    for (int it = 0; it < 3; ++it) {
        CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
        add<<<(n + 255) / 256, 256>>>(d, n);
        CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    }
    return h;
}
int main(int argc, char** argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 1 << 18;
    float* d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    float* h = counted(d, n);
    int bad = 0;
    for (int i = 0; i < n; ++i) if (h[i] != (float)(i % 5) + 3.0f) ++bad;
    free(h);
    CHECK(cudaFree(d));
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
