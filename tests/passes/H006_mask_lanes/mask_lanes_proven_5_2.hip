// cu2hip-options: --ignore W,L
#include <hip/hip_runtime.h>

// A mask local whose lanes are exactly those that run the call: the mask-less builtin.

// Warp-aggregated increment: __activemask() taken under the condition the call runs
// under (the caller's), the leader's atomic in between, no exit before the shuffle.
__device__ int aggregated_increment(int* counter) {
  unsigned active;
  active = __ballot(1);
  int leader = __ffs(active) - 1;
  int lane = threadIdx.x % 32;
  int base;
  if (lane == leader) base = atomicAdd(counter, __popc(active));
  base = __shfl(base, leader);
  return base + __popc(active & ((1u << lane) - 1));
}

// A stream compaction: the mask is narrowed to the lanes that keep their element, and
// the shuffle runs under `if (keep)`, the same predicate, which nothing writes after.
__global__ void compact(const int* in, int* out, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool keep = i < n && in[i] > 0;
  unsigned mask = __ballot(keep);
  if (keep) {
    int leader = __ffs(mask) - 1;
    int lane = threadIdx.x % 32;
    int base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(mask));
    base = __shfl(base, leader);
    out[base + __popc(mask & ((1u << lane) - 1))] = in[i];
  }
}

// In a loop body: recomputed every iteration, the call in the same body.
__global__ void rounds(int* data, int n) {
  for (int r = 0; r < n; ++r) {
    unsigned m = __ballot(1);
    data[threadIdx.x] += __shfl_down(data[threadIdx.x], 1);
  }
}

// A ballot over __activemask(), the call under `if (p)` inside a plain block.
__global__ void odd_lanes(int* data) {
  const bool p = threadIdx.x % 2 == 1;
  unsigned odd = __ballot(p);
  {
    if (p) data[threadIdx.x] = __shfl(data[threadIdx.x], 1);
  }
}
