#include <hip/hip_runtime.h>
// cu2hip-options: --rocm-version 6.0
// The program's own macro named like HIP's builtin: its calls are the macro (two
// parameters), so the width goes in its body, which every call reaches from code of
// 32-lane warps. Below 6.2 the body's shuffle is also made mask-less (the hipify pass).
#define FULL_MASK 0xffffffff
#define __shfl_down(v, d) __shfl_down(v, d, 32)
__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  return v;
}
__global__ void sums(const int *in, int *out) {
  int s = warp_sum(in[threadIdx.x]);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = s;
}
