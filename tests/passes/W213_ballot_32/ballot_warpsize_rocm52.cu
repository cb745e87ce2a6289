// Lanes and warps from warpSize: a warp is the wavefront, so the ballot is widened and
// counted with __popcll / __ffsll.
__global__ void votes(const int *in, int *count, int *first) {
  const int lane = threadIdx.x % warpSize;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if (b == 0) return;
  if (lane == 0) {
    count[warp] = __popc(b);
    first[warp] = __ffs(b) - 1;
  }
}
