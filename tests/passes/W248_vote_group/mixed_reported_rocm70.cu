// cu2hip-options: --rocm-version 7.0
// Lanes from warpSize and a warp index of 32 that addresses global memory: mixed code,
// so the vote is not taken for a 32-lane group's (reported).
__global__ void k(const int *in, int *out) {
  int any = __any_sync(0xffffffff, in[threadIdx.x] > 0);
  for (int o = warpSize / 2; o > 0; o /= 2) any += __shfl_down_sync(0xffffffff, any, o);
  if (threadIdx.x % warpSize == 0) out[threadIdx.x / 32] = any;
}
