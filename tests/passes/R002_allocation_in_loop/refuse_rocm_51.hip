// cu2hip-options: --rocm-version 5.1 --ignore L

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { printf("%s\n", hipGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

// ROCm 5.1 has no hipMallocAsync: the fix named is one allocation outside the loop.
void run(float* out, int n, int iters) {
    while (iters-- > 0) {
        float* d;
        CHECK(hipMalloc(&d, n * sizeof(float)));
        twice<<<1, 256>>>(d, n);
        CHECK(hipFree(d));
    }
}
