// cu2hip-options: --ignore W,L
#include <hip/hip_runtime.h>

// The mask's lanes are not proven to be the call's: reported as before (H014), no edit.
__global__ void narrower(int* a, int n) {
  unsigned m = __ballot(1);
  // Under a condition the mask was not taken under.
  if (threadIdx.x < 8) a[0] = __shfl_sync(m, a[1], 0);
  // In the other operand of a conditional.
  a[2] = n > 4 ? __shfl_sync(m, a[3], 0) : 0;
  // After an early return.
  if (a[4]) return;
  a[5] = __shfl_sync(m, a[6], 0);
}

__global__ void rewritten(int* a) {
  unsigned m = __ballot(1);
  m &= 0xffff;                              // narrowed by an assignment
  a[0] = __shfl_sync(m, a[1], 0);
  // A ballot of a value read from memory, tested again later: it may differ.
  unsigned b = __ballot(a[2] > 0);
  if (a[2] > 0) a[3] = __shfl_sync(b, a[4], 0);
  // A ballot of p, the call under another condition.
  bool p = threadIdx.x % 2 == 0;
  unsigned c = __ballot(p);
  if (!p) a[5] = __shfl_sync(c, a[6], 0);
}
