// cu2hip-options: --rocm-version 6.2 --ignore W
#include <cuda_runtime.h>

// From HIP 6.2 the mask must be 64-bit: a 32-bit literal keeps its value as unsigned long long.
__global__ void halves(float* a, unsigned mask) {
  float v = a[threadIdx.x];
  v += __shfl_down_sync(0x0000ffff, v, 8);
  v += __shfl_down_sync(65535u, v, 4);
  v += __shfl_xor_sync(0xffffffffffffffffull, v, 1);
  // Not a literal: left as it is.
  v += __shfl_xor_sync(mask, v, 2);
  a[threadIdx.x] = v;
}
