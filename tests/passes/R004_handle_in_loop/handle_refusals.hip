// cu2hip-options: --ignore L

#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { printf("%s\n", hipGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

#include <hipblas.h>
hipStream_t streams[8];
// Refused: the handle's state is set in the loop; a stream that escapes; a while loop of unknown trip count.
void run(float* x, int n, int iters) {
    for (int it = 0; it < 8; ++it) {
        hipblasHandle_t h;
        hipblasCreate(&h);
        hipblasSetStream(h, streams[it]);
        hipblasSscal(h, n, x, x, 1);
        hipblasDestroy(h);
    }
    for (int it = 0; it < 8; ++it) {
        hipStream_t s;
        CHECK(hipStreamCreate(&s));
        streams[it] = s;
        CHECK(hipStreamDestroy(s));
    }
    for (int it = 0; it < 8; ++it) {         // an event waited on before it is recorded
        hipEvent_t e;
        CHECK(hipEventCreate(&e));
        CHECK(hipStreamWaitEvent(streams[0], e, 0));
        twice<<<1, 256, 0, streams[0]>>>(x, n);
        CHECK(hipEventRecord(e, streams[0]));
        CHECK(hipEventDestroy(e));
    }
    while (iters-- > 0) {
        hipStream_t s;
        CHECK(hipStreamCreate(&s));
        twice<<<1, 256, 0, s>>>(x, n);
        CHECK(hipStreamDestroy(s));
    }
}
