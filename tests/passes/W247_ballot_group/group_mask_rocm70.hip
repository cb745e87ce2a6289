#include <hip/hip_runtime.h>
// cu2hip-options: --rocm-version 7.0
// A warp-aggregated increment in code of 32-lane warps: the active mask is the group's
// bits for __ffs, __popc and the lanes below, and the group's 64-bit mask where it is a
// mask (HIP asserts the mask is exactly the lanes that arrive).
__device__ int agg_inc(int *counter) {
  unsigned active = (unsigned)(__activemask() >> (__lane_id() & 32));
  int lane = threadIdx.x % 32;
  int leader = __ffs(active) - 1;
  int old = 0;
  if (lane == leader) old = atomicAdd(counter, __popc(active));
  old = __shfl_sync(((unsigned long long)active << (__lane_id() & 32)), old, leader, 32);
  return old + __popc(active & ((1u << lane) - 1));
}

__global__ void compact(const int *in, int *out, int *count) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v % 3 == 0) out[agg_inc(count)] = v;
}
