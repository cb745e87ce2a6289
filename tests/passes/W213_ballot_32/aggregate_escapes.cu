// cu2hip-options: --rocm-version 7.0
// Masks whose value leaves what the analysis follows are not widened; each warning says
// where and what to write: returned as 32 bits, compared with a 32-lane literal, passed
// to a function, stored to memory.
__device__ void keep(unsigned m);
__device__ unsigned leaders(int* counter) {
  unsigned mask = __activemask();
  int lane = threadIdx.x % warpSize;
  if (lane == __ffs(mask) - 1) atomicAdd(counter, __popc(mask));
  return mask;
}
__global__ void votes(const int* in, int* out, unsigned* saved) {
  unsigned full = __ballot_sync(0xffffffff, in[threadIdx.x] > 1);
  if (full == 0xffffffff) out[0] = __popc(full);
  unsigned passed = __ballot_sync(0xffffffff, in[threadIdx.x] > 2);
  keep(passed);
  out[1] = __ffs(passed);
  unsigned stored = __ballot_sync(0xffffffff, in[threadIdx.x] > 3);
  saved[threadIdx.x / warpSize] = stored;
  out[2] = __popc(stored);
}
