#include <hip/hip_runtime.h>
// shfl over 32-lane segments keeps its width, written out; below HIP 6.2 the full-mask
// *_sync call then becomes the mask-less builtin (H006).
__device__ float shuffles(float v, int x) {
  float a, b, c;
  int d, e;
  a = __shfl_down(v, 16, 32);
  b = __shfl_up(v, 1, 32);
  c = __shfl_xor(v, 4, 16);
  d = __shfl(x, 0, 32);
  e = __shfl_down(x, 8, 32);
  return a + b + c + d + e;
}
