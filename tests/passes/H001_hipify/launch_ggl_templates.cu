// cu2hip-options: --hip-kernel-execution-syntax --no-fuse --ignore L
#include <cuda_runtime.h>

template <typename T>
__global__ void scale(T* a, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}

template <typename T, int kBlock>
__global__ void reduce(const T* in, T* out) {}

namespace ops { __global__ void clear(float* a) { a[threadIdx.x] = 0.0f; } }

void run(float* a, double* b, int n, cudaStream_t s) {
  scale<float><<<(n + 255) / 256, 256>>>(a, 2.0f, n);
  // Template arguments deduced from the call: still a template kernel.
  scale<<<(n + 255) / 256, 256, 0, s>>>(b, 2.0, n);
  reduce<float, 256><<<1, 256, 256 * sizeof(float), s>>>(a, a);
  ops::clear<<<1, 32>>>(a);
}
