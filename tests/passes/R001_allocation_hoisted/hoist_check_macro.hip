// cu2hip-options: --ignore L

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { printf("%s\n", hipGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

// Hoisted: a loop-invariant size, a pointer only launches and copies see, the free last.
void run(const float* h, float* out, int n) {
    const int iters = 50;
    float* d;
    CHECK(hipMalloc(&d, n * sizeof(float)));
    for (int it = 0; it < iters; ++it) {
        CHECK(hipMemcpy(d, h, n * sizeof(float), hipMemcpyHostToDevice));
        twice<<<(n + 255) / 256, 256>>>(d, n);
        CHECK(hipMemcpy(out, d, n * sizeof(float), hipMemcpyDeviceToHost));
    }
    CHECK(hipFree(d));
}
// Declared before the loop, a do loop (runs once at least), two pairs freed at the end.
void pairs(float* out, int n) {
    float* a;
    float* b;
    int it = 0;
    hipMalloc((void**)&a, n * sizeof(float));
    hipMalloc((void**)&b, n * sizeof(float));
    do {
        ++it;
        twice<<<1, 256>>>(a, n);
        hipMemcpy(b, a, n * sizeof(float), hipMemcpyDeviceToDevice);
        hipMemcpy(out, b + 1, (n - 1) * sizeof(float), hipMemcpyDeviceToHost);
    } while (it < 4);
    hipFree(a);
    hipFree(b);
}
