// cu2hip-options: --rocm-version 6.0
// A ballot kept in 32 bits that is also a shuffle's mask: below HIP 6.2 the shuffle needs
// a mask-less form the ballot does not give (H014), so the ballot is not rewritten either:
// reported with the fix.
__global__ void k(const int *in, int *out) {
  int lane = threadIdx.x % 32;
  unsigned m = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  int first = __ffs(m) - 1;
  out[threadIdx.x] = __shfl_sync(m, lane, first);
}
