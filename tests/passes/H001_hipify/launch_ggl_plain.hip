// cu2hip-options: --hip-kernel-execution-syntax --no-fuse --ignore L
#include <hip/hip_runtime.h>

__global__ void fill(float* a, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}
__global__ void tick() {}

void run(float* a, int n, hipStream_t stream) {
  dim3 grid((n + 255) / 256), block(256);
  hipLaunchKernelGGL(fill, dim3((n + 255) / 256), dim3(256), 0, 0, a, 1.0f, n);
  hipLaunchKernelGGL(fill, dim3(grid), dim3(block), 0, 0, a, 2.0f, n);
  hipLaunchKernelGGL(fill, dim3(4, 1), dim3(64, 1, 1), 1024, stream, a, 3.0f, n);
  hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, a, 4.0f, n);
  hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0,
      a, 5.0f, n);
  hipLaunchKernelGGL(tick, dim3(1), dim3(1), 0, 0);
}
