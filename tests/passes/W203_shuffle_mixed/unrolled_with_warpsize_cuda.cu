// cu2hip-options: --target cuda
// An unrolled reduction from 16 beside lanes computed from warpSize: no loop to rewrite,
// and a width of 32 would contradict the lane arithmetic, so the offset-16 shuffle is
// reported. The offsets 8..1 mean the same on any width.
__global__ void k(const int *in, int *out) {
  int v = in[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, 16);
  v += __shfl_down_sync(0xffffffff, v, 8);
  v += __shfl_down_sync(0xffffffff, v, 4);
  v += __shfl_down_sync(0xffffffff, v, 2);
  v += __shfl_down_sync(0xffffffff, v, 1);
  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = v;
}
