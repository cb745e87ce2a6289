// cu2hip-options: --hip-kernel-execution-syntax --no-fuse --ignore L
#include <hip/hip_runtime.h>

template <typename T>
__global__ void scale(T* a, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}

template <typename T, int kBlock>
__global__ void reduce(const T* in, T* out) {}

namespace ops { __global__ void clear(float* a) { a[threadIdx.x] = 0.0f; } }

void run(float* a, double* b, int n, hipStream_t s) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float>), dim3((n + 255) / 256), dim3(256), 0, 0, a, 2.0f, n);
  // Template arguments deduced from the call: still a template kernel.
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale), dim3((n + 255) / 256), dim3(256), 0, s, b, 2.0, n);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(reduce<float, 256>), dim3(1), dim3(256), 256 * sizeof(float), s, a, a);
  hipLaunchKernelGGL(ops::clear, dim3(1), dim3(32), 0, 0, a);
}
