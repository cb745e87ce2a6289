// cu2hip-options: --target cuda
// Lanes and warps from warpSize: a vote per wavefront is what is meant. Nothing to say.
__global__ void votes(const int *in, int *out) {
  const int v = in[threadIdx.x];
  int any = __any_sync(0xffffffff, v > 0);
  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = any;
}
