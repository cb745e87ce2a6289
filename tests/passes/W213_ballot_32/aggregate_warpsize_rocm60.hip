#include <hip/hip_runtime.h>
// cu2hip-options: --rocm-version 6.0
// A warp-aggregated atomic over the lanes that arrive, lanes from warpSize: the mask is
// followed through the function: declared 64-bit, counted with __popcll/__ffsll, its
// lane bits 1ull << lane, the local it flows into widened too.
__device__ int aggregate(int* counter) {
  unsigned long long mask = __ballot(1);
  int leader = __ffsll(mask) - 1;
  int n = __popcll(mask);
  int lane = threadIdx.x % warpSize;
  int res = 0;
  if (lane == leader) res = atomicAdd(counter, n);
  res = __shfl(res, leader);
  unsigned long long below = mask & ((1ull << lane) - 1);
  return res + __popcll(below);
}
