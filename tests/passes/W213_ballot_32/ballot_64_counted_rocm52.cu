// A ballot kept in 64 bits (or counted directly) under lanes from warpSize: __popc of it
// truncates to lanes 0-31 and __ffs of it is ambiguous in hipcc, so both become
// __popcll/__ffsll; a lane mask combined with it gets 1ull.
__global__ void votes(const int* in, int* out) {
  const int lane = threadIdx.x % warpSize;
  unsigned long long b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if (lane == 0) out[threadIdx.x / warpSize] = __popc(b) + __ffs(b);
  out[threadIdx.x] = __popc(__ballot_sync(0xffffffff, in[threadIdx.x] > 1) & ((1u << lane) - 1));
}
