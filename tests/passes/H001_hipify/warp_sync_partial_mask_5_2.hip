// cu2hip-options: --ignore W
#include <hip/hip_runtime.h>

__global__ void half_warp(float* a, unsigned mask) {
  float v = a[threadIdx.x];
  // A partial or unknown mask has no mask-less equivalent: an error, no edit.
  v += __shfl_down_sync(0x0000ffff, v, 8);
  v += __shfl_xor_sync(mask, v, 1);
  // HIP 5.2 has no __syncwarp.
  __syncwarp();
  // __activemask() is __ballot(1) in HIP.
  unsigned long long active = __ballot(1);
  a[threadIdx.x] = v + (float)active;
}
