#include <hip/hip_runtime.h>
// cu2hip-options: --rocm-version 6.0
// Votes in code of 32-lane warps below HIP 6.2: the hipify pass makes them mask-less,
// then each becomes the vote of the lane's own 32-lane group; a second run changes
// nothing (the group's forms are recognised).
__global__ void votes(const int *in, int *out) {
  const int lane = threadIdx.x & 31;
  const int v = in[threadIdx.x];
  int any = ((unsigned)(__ballot(v > 0) >> (__lane_id() & 32)) != 0);
  int all = ((unsigned)(__ballot(v > 0) >> (__lane_id() & 32)) == (unsigned)(__ballot(1) >> (__lane_id() & 32)));
  int n = __popc((unsigned)(__ballot(v > 0) >> (__lane_id() & 32)));
  if (((unsigned)(__ballot(v != 7) >> (__lane_id() & 32)) == (unsigned)(__ballot(1) >> (__lane_id() & 32))) && lane == 0) out[threadIdx.x >> 5] = any + all + n;
}
