// cu2hip-options: --target cuda
// `threadIdx.x < 32` may be the first warp or 32 items: among lanes of 32 and a
// reduction over warpSize lanes, nothing is rewritten (rewriting the rest halfway would
// reduce 64 lanes of which 32 are inactive) and every 32 is reported.
__device__ int warp_sum(int v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__global__ void block_sum(const int *in, int *out) {
  __shared__ int partial[32];
  int lane = threadIdx.x % 32;
  int v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? partial[lane] : 0;
    v = warp_sum(v);
  }
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
