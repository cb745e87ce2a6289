// cu2hip-options: --ignore L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

#include <cufft.h>
// A stream, an event and a cuFFT plan per iteration: hoisted.
void run(float* x, cufftComplex* c, int n) {
    for (int it = 0; it < 20; ++it) {
        cudaStream_t s;
        CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        cudaEvent_t done;
        CHECK(cudaEventCreate(&done));
        cufftHandle plan;
        cufftPlan1d(&plan, n, CUFFT_C2C, 1);
        cufftExecC2C(plan, c, c, CUFFT_FORWARD);
        twice<<<(n + 255) / 256, 256, 0, s>>>(x, n);
        CHECK(cudaEventRecord(done, s));
        CHECK(cudaEventSynchronize(done));
        cufftDestroy(plan);
        CHECK(cudaEventDestroy(done));
        CHECK(cudaStreamDestroy(s));
    }
}
