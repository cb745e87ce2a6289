// cu2hip-options: --hip-kernel-execution-syntax --ignore L
#include <cuda_runtime.h>

__global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

#define BLOCK 256
#define LAUNCH_1D(kernel, n, stream, ...) \
  kernel<<<((n) + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(__VA_ARGS__)
#define LAUNCH_AXPY(n) axpy<<<((n) + 255) / 256, 256>>>(2.0f, x, y, n)

void run(const float* x, float* y, int n, cudaStream_t s) {
  LAUNCH_1D(axpy, n, s, 2.0f, x, y, n);
  LAUNCH_AXPY(n);
}
