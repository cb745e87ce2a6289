// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// A bare synchronisation right before another: removed. A checked one stays.
int main() {
    const int n = 1024;
    float* d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    twice<<<(n + 255) / 256, 256>>>(d, n);
    CHECK(cudaDeviceSynchronize());
    half<<<(n + 255) / 256, 256>>>(d, n);
    CHECK(cudaDeviceSynchronize());
    cudaDeviceSynchronize();
    CHECK(cudaFree(d));
    return 0;
}
