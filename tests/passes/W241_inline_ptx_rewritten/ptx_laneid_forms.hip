#include <hip/hip_runtime.h>
// %laneid read by every spelling of an asm statement: each becomes an assignment of __lane_id().
struct Slot { unsigned lane; };

__device__ unsigned lane_a() {
  unsigned l;
  l = __lane_id();
  return l;
}

__device__ int lane_b(int *where, Slot *slot, int i) {
  int l;
  l = __lane_id();
  where[i] = __lane_id();
  slot->lane = __lane_id();
  *where = __lane_id();
  where[i + 1] = __lane_id();
  return l;
}

__global__ void lanes(unsigned *out) {
  out[threadIdx.x] = lane_a();
}
