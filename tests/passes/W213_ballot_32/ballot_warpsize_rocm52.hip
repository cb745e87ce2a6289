#include <hip/hip_runtime.h>
// Lanes and warps from warpSize: a warp is the wavefront, so the ballot is widened and
// counted with __popcll / __ffsll.
__global__ void votes(const int *in, int *count, int *first) {
  const int lane = threadIdx.x % warpSize;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  unsigned long long b = __ballot(in[threadIdx.x] > 0);
  if (b == 0) return;
  if (lane == 0) {
    count[warp] = __popcll(b);
    first[warp] = __ffsll(b) - 1;
  }
}
