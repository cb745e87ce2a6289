// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// main's work is all on s, which main creates: each device-wide synchronisation becomes s's.
int main() {
    const int n = 1024;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    float* d;
    float* h = (float*)malloc(n * sizeof(float));
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemsetAsync(d, 0, n * sizeof(float), s));
    for (int it = 0; it < 4; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamSynchronize(s));
        printf("%f\n", h[0]);
    }
    half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    cudaStreamSynchronize(s);
    CHECK(cudaFree(d));
    free(h);
    CHECK(cudaStreamDestroy(s));
    return 0;
}
