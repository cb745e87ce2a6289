// cu2hip-options: --ignore L,F --rocm-version 6.0
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// The HIP translation: hipHostMalloc with hipHostMallocDefault, hipHostFree.
void steps(float* d) {
    const int n = 1 << 20;
    float* h = static_cast<float*>(malloc(n * sizeof(float)));
    for (int it = 0; it < 10; ++it) {
        CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
        twice<<<(n + 255) / 256, 256>>>(d, n);
    }
    free(h);
}
