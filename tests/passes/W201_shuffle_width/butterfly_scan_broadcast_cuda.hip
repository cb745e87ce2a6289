// cu2hip-options: --target cuda
// A butterfly max, an unrolled reduction, an inclusive scan and a broadcast, all written
// for 32 lanes in a kernel with no lane arithmetic: each shuffle gets a width of 32.
#define FULL 0xffffffff

__device__ int warp_max(int v) {
  for (int mask = 16; mask >= 1; mask >>= 1)
    v = max(v, __shfl_xor_sync(FULL, v, mask, 32));
  return v;
}

__global__ void k(const int *in, int *out) {
  int v = in[threadIdx.x];
  int m = warp_max(v);
  int s = v;
  s += __shfl_down_sync(FULL, s, 16, 32);
  s += __shfl_down_sync(FULL, s, 8, 32);
  s += __shfl_down_sync(FULL, s, 4, 32);
  s += __shfl_down_sync(FULL, s, 2, 32);
  s += __shfl_down_sync(FULL, s, 1, 32);
  int x = v;
  for (int offset = 1; offset < 32; offset *= 2) {
    int y = __shfl_up_sync(FULL, x, offset, 32);
    x += y;
  }
  int first = __shfl_sync(FULL, v, 0, 32);
  out[threadIdx.x] = m + s + x + first;
}
