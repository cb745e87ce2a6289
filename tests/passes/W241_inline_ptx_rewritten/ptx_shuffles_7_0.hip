#include <hip/hip_runtime.h>
// cu2hip-options: --rocm-version 7.0
// shfl over 32-lane segments keeps its width, written out; from HIP 7.0 the 32-bit full mask is widened (H006)
// and the mask-less legacy form stays.
__device__ float shuffles(float v, int x) {
  float a, b, c;
  int d, e;
  a = __shfl_down_sync(__activemask(), v, 16, 32);
  b = __shfl_up_sync(__activemask(), v, 1, 32);
  c = __shfl_xor_sync(__activemask(), v, 4, 16);
  d = __shfl_sync(__activemask(), x, 0, 32);
  e = __shfl_down(x, 8, 32);
  return a + b + c + d + e;
}
