// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// A memset on the default stream before the work on s: not rewritten (R006 says why).
int main() {
    const int n = 1024;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    float* d;
    float h[16];
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemset(d, 0, n * sizeof(float)));        // the default stream
    twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    CHECK(cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, s));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaStreamDestroy(s));
    return 0;
}
