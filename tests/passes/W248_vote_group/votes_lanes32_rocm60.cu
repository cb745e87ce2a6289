// cu2hip-options: --rocm-version 6.0
// Votes in code of 32-lane warps below HIP 6.2: the hipify pass makes them mask-less,
// then each becomes the vote of the lane's own 32-lane group; a second run changes
// nothing (the group's forms are recognised).
__global__ void votes(const int *in, int *out) {
  const int lane = threadIdx.x & 31;
  const int v = in[threadIdx.x];
  int any = __any_sync(0xffffffff, v > 0);
  int all = __all_sync(0xffffffff, v > 0);
  int n = __popc(__ballot_sync(0xffffffff, v > 0));
  if (__all_sync(0xffffffff, v != 7) && lane == 0) out[threadIdx.x >> 5] = any + all + n;
}
