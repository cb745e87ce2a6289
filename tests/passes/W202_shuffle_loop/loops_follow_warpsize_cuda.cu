// cu2hip-options: --target cuda
// The kernel computes lanes and warps from warpSize, so its helpers' loops written for
// 32 lanes run over warpSize lanes: the reduction from warpSize / 2, the scans to warpSize.
__device__ int warp_sum(int v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__device__ int warp_scan(int x, int lane) {
  for (int d = 1; d < 32; d *= 2) {
    int y = __shfl_up_sync(0xffffffff, x, d);
    if (lane >= d) x += y;
  }
  for (int d = 1; d <= 16; d <<= 1) x += __shfl_xor_sync(0xffffffff, x, d) * 0;
  return x;
}

__global__ void k(const int *in, int *sums, int *scan) {
  const int lane = threadIdx.x % warpSize;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  scan[blockIdx.x * blockDim.x + threadIdx.x] = warp_scan(v, lane);
  v = warp_sum(v);
  if (lane == 0) sums[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = v;
}
