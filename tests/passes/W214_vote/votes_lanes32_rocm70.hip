#include <hip/hip_runtime.h>
// cu2hip-options: --rocm-version 7.0
// Votes over the whole wavefront where the code's warps are 32 lanes: each reported.
// `__activemask()` as a mask argument is not a vote.
__global__ void votes(const int *in, int *out) {
  const int lane = threadIdx.x & 31;
  const int v = in[threadIdx.x];
  int any = ((unsigned)(__ballot_sync(__activemask(), v > 0) >> (__lane_id() & 32)) != 0);
  int all = ((unsigned)(__ballot_sync(__activemask(), v > 0) >> (__lane_id() & 32)) == (unsigned)(__activemask() >> (__lane_id() & 32)));
  int n = __popc((unsigned)(__ballot_sync(__activemask(), v > 0) >> (__lane_id() & 32)));
  int total = __reduce_add_sync(__activemask(), v);
  if (lane == 0) out[threadIdx.x >> 5] = any + all + n + total;
}
