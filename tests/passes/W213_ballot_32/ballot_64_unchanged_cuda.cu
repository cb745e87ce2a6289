// cu2hip-options: --target cuda
// Ballots already kept in 64 bits and counted with __popcll: nothing to do.
__global__ void count(const int *in, int *out) {
  unsigned long long b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = __popcll(b);
}
