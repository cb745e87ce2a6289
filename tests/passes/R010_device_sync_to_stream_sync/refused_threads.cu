// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#include <thread>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// Another host thread may enqueue work on other streams: not rewritten.
int main() {
    const int n = 1024;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    float* d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    std::thread other([&] { printf("other\n"); });
    twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    CHECK(cudaDeviceSynchronize());
    other.join();
    return 0;
}
