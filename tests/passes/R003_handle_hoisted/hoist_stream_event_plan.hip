// cu2hip-options: --ignore L

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { printf("%s\n", hipGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

#include <hipfft/hipfft.h>
// A stream, an event and a cuFFT plan per iteration: hoisted.
void run(float* x, hipfftComplex* c, int n) {
    hipStream_t s;
    CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    hipEvent_t done;
    CHECK(hipEventCreate(&done));
    for (int it = 0; it < 20; ++it) {
        hipfftHandle plan;
        hipfftPlan1d(&plan, n, HIPFFT_C2C, 1);
        hipfftExecC2C(plan, c, c, HIPFFT_FORWARD);
        twice<<<(n + 255) / 256, 256, 0, s>>>(x, n);
        CHECK(hipEventRecord(done, s));
        CHECK(hipEventSynchronize(done));
        hipfftDestroy(plan);
    }
    CHECK(hipStreamDestroy(s));
    CHECK(hipEventDestroy(done));
}
