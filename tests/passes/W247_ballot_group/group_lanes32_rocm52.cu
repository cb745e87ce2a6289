// Lanes of 32: the count must be the lane's own 32-lane group's, so both 32-bit ballots
// keep their type and take the group's half of the wavefront's ballot. Below HIP 6.2 the
// `__activemask()` becomes `__ballot(1)` (the hipify pass) inside the same shift.
__device__ int agg_inc(int *counter) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  int lane = threadIdx.x % 32;
  int old = 0;
  if (lane == leader) old = atomicAdd(counter, __popc(active));
  return old;
}

__global__ void count(const int *in, int *out) {
  unsigned int b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = __popc(b) + agg_inc(out);
}
