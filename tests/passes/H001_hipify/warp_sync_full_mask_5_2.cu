// cu2hip-options: --ignore W
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff

// Below HIP 6.2 there are no *_sync builtins; a full mask means the mask-less builtin.
__global__ void warp_sum(const float* in, float* out, int* votes) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  v += __shfl_xor_sync(FULL_MASK, v, 8);
  const unsigned all_lanes = 0xFFFFFFFFu;
  v += __shfl_up_sync(all_lanes, v, 4, 16);
  v = __shfl_sync(~0u, v, 0);
  int any = __any_sync(0xffffffff, v > 0.0f);
  int all = __all_sync(-1, v > 0.0f);
  unsigned long long ballot = __ballot_sync(0xffffffffu, v > 0.0f);
  votes[threadIdx.x] = any + all + (int)ballot;
  out[threadIdx.x] = v;
}
