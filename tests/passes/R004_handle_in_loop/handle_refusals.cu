// cu2hip-options: --ignore L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

#include <cublas_v2.h>
cudaStream_t streams[8];
// Refused: the handle's state is set in the loop; a stream that escapes; a while loop of unknown trip count.
void run(float* x, int n, int iters) {
    for (int it = 0; it < 8; ++it) {
        cublasHandle_t h;
        cublasCreate(&h);
        cublasSetStream(h, streams[it]);
        cublasSscal(h, n, x, x, 1);
        cublasDestroy(h);
    }
    for (int it = 0; it < 8; ++it) {
        cudaStream_t s;
        CHECK(cudaStreamCreate(&s));
        streams[it] = s;
        CHECK(cudaStreamDestroy(s));
    }
    for (int it = 0; it < 8; ++it) {         // an event waited on before it is recorded
        cudaEvent_t e;
        CHECK(cudaEventCreate(&e));
        CHECK(cudaStreamWaitEvent(streams[0], e, 0));
        twice<<<1, 256, 0, streams[0]>>>(x, n);
        CHECK(cudaEventRecord(e, streams[0]));
        CHECK(cudaEventDestroy(e));
    }
    while (iters-- > 0) {
        cudaStream_t s;
        CHECK(cudaStreamCreate(&s));
        twice<<<1, 256, 0, s>>>(x, n);
        CHECK(cudaStreamDestroy(s));
    }
}
