// cu2hip-options: --target cuda
// Written for any width: offsets from warpSize / 2, lanes from warpSize. Nothing to do.
__device__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__global__ void k(const float *in, float *out) {
  float v = warp_sum(in[threadIdx.x]);
  int first = __shfl_sync(0xffffffff, threadIdx.x, 0);
  if (threadIdx.x % warpSize == 0) out[blockIdx.x] = v + first;
}
