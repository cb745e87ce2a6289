// cu2hip-options: --target cuda --ignore L,F
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void helper(float* d, int n);

// A call the pass does not see into may enqueue work on another stream: the first
// synchronisation is rewritten, the one after the call is not.
int main() {
    const int n = 1024;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    float* d;
    float h[16];
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    CHECK(cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, s));
    CHECK(cudaDeviceSynchronize());
    helper(d, n);                                        // a call the pass does not see into
    half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaStreamDestroy(s));
    return 0;
}
