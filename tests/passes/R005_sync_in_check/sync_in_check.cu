// cu2hip-options: --ignore L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

// A device-wide wait in the check after every launch (reported), and one after the loop (not).
void run(float* x, int n) {
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256>>>(x, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    }
    CHECK(cudaDeviceSynchronize());
}
