// cu2hip-options: --target cuda
// On CUDA a warp is 32 lanes: the ballot is left as it is (reported, as on any target).
__global__ void k(const int *in, int *out) {
  unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = __popc(b);
}
