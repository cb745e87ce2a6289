#include <hip/hip_runtime.h>
// HIP's own mask-less shuffles in code written for 32 lanes get the width too; a second
// run over the output (widths present) changes nothing.
__device__ int sum32(int v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o, 32);
  return v;
}

__device__ int already(int v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o, 32);
  return v + __shfl_down(v, 8, 16);
}
