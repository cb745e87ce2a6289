// cu2hip-options: --ignore W
#include <hip/hip_runtime.h>

#define FULL_MASK 0xffffffff

// Below HIP 6.2 there are no *_sync builtins; a full mask means the mask-less builtin.
__global__ void warp_sum(const float* in, float* out, int* votes) {
  float v = in[threadIdx.x];
  v += __shfl_down(v, 16);
  v += __shfl_xor(v, 8);
  const unsigned all_lanes = 0xFFFFFFFFu;
  v += __shfl_up(v, 4, 16);
  v = __shfl(v, 0);
  int any = __any(v > 0.0f);
  int all = __all(v > 0.0f);
  unsigned long long ballot = __ballot(v > 0.0f);
  votes[threadIdx.x] = any + all + (int)ballot;
  out[threadIdx.x] = v;
}
