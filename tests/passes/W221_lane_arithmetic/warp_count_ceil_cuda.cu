// cu2hip-options: --target cuda --ignore L
// Lanes from warpSize in the helper, lanes, warps and a rounded-up count of warps on 32 in
// the kernel: all of them move to warpSize together, the count included.
__device__ int warp_reduce(int v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}
__global__ void block_sums(const int *in, int *out) {
  __shared__ int partial[32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int warps = (blockDim.x + 31) / 32;
  int v = warp_reduce(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warp_reduce(lane < warps ? partial[lane] : 0);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
