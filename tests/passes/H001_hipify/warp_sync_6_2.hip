// cu2hip-options: --rocm-version 6.2 --ignore W
#include <hip/hip_runtime.h>

#define FULL_MASK 0xffffffff

// HIP 6.2 has the *_sync builtins (opt-in) with a 64-bit mask: a 32-bit full mask is widened.
__global__ void warp_sum(float* a) {
  float v = a[threadIdx.x];
  v += __shfl_down_sync(__activemask(), v, 16);
  v += __shfl_xor_sync(__activemask(), v, 8);
  v += __shfl_sync(0xffffffffffffffffull, v, 0);
  unsigned long long b = __ballot_sync(__activemask(), v > 0.0f);
  a[threadIdx.x] = v + (float)b;
}
