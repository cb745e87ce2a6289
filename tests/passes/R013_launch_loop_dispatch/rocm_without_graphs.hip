// cu2hip-options: --ignore L,F --rocm-version 4.2

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { printf("%s\n", hipGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }

// ROCm 4.2 has no stream capture: reported.
void run(int n, int steps) {
    hipStream_t s;
    CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    float* d;
    CHECK(hipMalloc(&d, n * sizeof(float)));
    const float* src = d;
    for (int it = 0; it < steps; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        half<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        twice<<<(n + 255) / 256, 256, 0,
                s>>>(d + n / 2, n / 2);
    }
    CHECK(hipStreamSynchronize(s));
    CHECK(hipFree(d));
    CHECK(hipStreamDestroy(s));
}
