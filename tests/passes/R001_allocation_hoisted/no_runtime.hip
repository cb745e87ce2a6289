// cu2hip-options: --no-runtime --ignore L

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { printf("%s\n", hipGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

// --no-runtime: the allocation stays in the loop, nothing is reported.
void run(float* out, int n) {
    for (int it = 0; it < 50; ++it) {
        float* d;
        CHECK(hipMalloc(&d, n * sizeof(float)));
        twice<<<(n + 255) / 256, 256>>>(d, n);
        CHECK(hipFree(d));
    }
}
