// cu2hip-options: --target cuda
// A warp index on 32 addresses a per-warp output the host sized for 32-lane warps, while
// the reduction runs over warpSize lanes: not rewritable, each 32 site is reported.
__global__ void warp_sums(const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = i % 32;
  float v = in[i];
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0) out[i / 32] = v;
}
