// cu2hip-options: --ignore L,F --rocm-version 4.2
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// ROCm 4.2 has no stream capture: reported.
void run(int n, int steps) {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float* d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    const float* src = d;
    for (int it = 0; it < steps; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        twice<<<(n + 255) / 256, 256, 0,
                s>>>(d + n / 2, n / 2);
    }
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
}
