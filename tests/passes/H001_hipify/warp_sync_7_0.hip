// cu2hip-options: --rocm-version 7.0 --ignore W
#include <hip/hip_runtime.h>

#define FULL_MASK 0xffffffff

// HIP 7.0 has the *_sync builtins by default, with a 64-bit mask, plus __syncwarp and __reduce_*_sync.
__global__ void warp_sum(float* a, int* n) {
  float v = a[threadIdx.x];
  v += __shfl_down_sync(__activemask(), v, 16);
  v += __shfl_xor_sync(__activemask(), v, 8);
  unsigned long long b = __ballot_sync(__activemask(), v > 0.0f);
  __syncwarp();
  int count = __reduce_add_sync(__activemask(), v > 0.0f ? 1 : 0);
  a[threadIdx.x] = v + (float)b;
  n[threadIdx.x] = count;
}
