// cu2hip-options: --ignore L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

// One stream's work: reported with cudaStreamSynchronize(s). Two streams, or the default
// stream's work: not reported.
void one(float* x, float* h, int n, cudaStream_t s) {
    twice<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    CHECK(cudaMemcpyAsync(h, x, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaDeviceSynchronize());
}
void two(float* x, float* y, int n, cudaStream_t s, cudaStream_t t) {
    twice<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    twice<<<(n + 255) / 256, 256, 0, t>>>(y, n);
    cudaDeviceSynchronize();
}
void default_stream(float* x, int n) {
    twice<<<(n + 255) / 256, 256>>>(x, n);
    cudaDeviceSynchronize();
}
