#include <hip/hip_runtime.h>
// cu2hip-options: --rocm-version 7.0
#define FULL_MASK 0xffffffffu

__device__ float warpReduceSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(__activemask(), v, offset, 32);
  return v;
}

// One shared slot per 32-lane warp; lane 31 keeps the last value.
__global__ void block_sum(const float *in, float *out, float *last) {
  __shared__ float warp_sums[32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (lane == 31) last[blockIdx.x * blockDim.x / 32 + warp] = v;
  v = warpReduceSum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    v = warpReduceSum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
