// cu2hip-options: --rocm-version 7.0
// A warp-aggregated atomic over the lanes that arrive, lanes from warpSize: the mask is
// followed through the function: declared 64-bit, counted with __popcll/__ffsll, its
// lane bits 1ull << lane, the local it flows into widened too.
__device__ int aggregate(int* counter) {
  unsigned mask = __activemask();
  int leader = __ffs(mask) - 1;
  int n = __popc(mask);
  int lane = threadIdx.x % warpSize;
  int res = 0;
  if (lane == leader) res = atomicAdd(counter, n);
  res = __shfl_sync(mask, res, leader);
  unsigned below = mask & ((1 << lane) - 1);
  return res + __popc(below);
}
