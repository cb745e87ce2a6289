// cu2hip-options: --ignore L

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { printf("%s\n", hipGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

// A device-wide wait in the check after every launch (reported), and one after the loop (not).
void run(float* x, int n) {
    for (int it = 0; it < 100; ++it) {
        twice<<<(n + 255) / 256, 256>>>(x, n);
        CHECK(hipGetLastError());
        CHECK(hipDeviceSynchronize());
    }
    CHECK(hipDeviceSynchronize());
}
