// cu2hip-options: --hip-kernel-execution-syntax --ignore L
#include <hip/hip_runtime.h>

__global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

#define BLOCK 256
#define LAUNCH_1D(kernel, n, stream, ...) \
  hipLaunchKernelGGL(kernel, dim3(((n) + BLOCK - 1) / BLOCK), dim3(BLOCK), 0, stream, __VA_ARGS__)
#define LAUNCH_AXPY(n) hipLaunchKernelGGL(axpy, dim3(((n) + 255) / 256), dim3(256), 0, 0, 2.0f, x, y, n)

void run(const float* x, float* y, int n, hipStream_t s) {
  LAUNCH_1D(axpy, n, s, 2.0f, x, y, n);
  LAUNCH_AXPY(n);
}
