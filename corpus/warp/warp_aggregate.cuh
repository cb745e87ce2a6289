// A warp-aggregated slot reservation kept in a header, written for any warp width
// (lanes from warpSize): the lanes that arrive share one atomicAdd; the lane-bits mask
// below the lane is a local of its own.
#pragma once

__device__ inline int aggregate_slot(int* counter) {
  const int lane = threadIdx.x % warpSize;
  unsigned mask = __activemask();
  const int leader = __ffs(mask) - 1;
  int base = 0;
  if (lane == leader) base = atomicAdd(counter, __popc(mask));
  base = __shfl_sync(mask, base, leader);
  unsigned lower = (1u << lane) - 1;
  unsigned below = mask & lower;
  return base + __popc(below);
}
