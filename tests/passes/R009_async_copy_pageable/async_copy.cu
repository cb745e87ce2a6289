// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// cudaMemcpyAsync of a malloc'd buffer: synchronous. Reported, not made pinned (the host
// reads h right after the copy: pinned, the copy would be asynchronous and that read a race).
void async_steps(float* d, int n, cudaStream_t s) {
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 10; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
        if (h[0] > 1e30f) printf("big\n");
    }
    free(h);
}
