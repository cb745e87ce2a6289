// Kernels for macro_launch.cu. Several are stamped out by a macro, the way
// many code bases generate families of elementwise kernels.
#ifndef CORPUS_MACRO_KERNELS_CUH
#define CORPUS_MACRO_KERNELS_CUH

#include <cuda_runtime.h>

#define GLOBAL_INDEX() (blockIdx.x * blockDim.x + threadIdx.x)

#define DEFINE_UNARY_KERNEL(name, T, expr)                                   \
  __global__ void name##_kernel(const T* in, T* out, int n) {                \
    int i = GLOBAL_INDEX();                                                  \
    if (i < n) {                                                             \
      T x = in[i];                                                           \
      out[i] = (expr);                                                       \
    }                                                                        \
  }

DEFINE_UNARY_KERNEL(square, int, x * x)
DEFINE_UNARY_KERNEL(negate, int, -x)
DEFINE_UNARY_KERNEL(halve, float, x * 0.5f)

__global__ void iota_kernel(int* out, int n, int start) {
  int i = GLOBAL_INDEX();
  if (i < n) out[i] = start + i;
}

__global__ void axpy_kernel(int a, const int* x, int* y, int n) {
  for (int i = GLOBAL_INDEX(); i < n; i += gridDim.x * blockDim.x)
    y[i] += a * x[i];
}

#endif  // CORPUS_MACRO_KERNELS_CUH
