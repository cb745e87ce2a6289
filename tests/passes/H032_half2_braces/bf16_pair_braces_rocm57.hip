// cu2hip-options: --rocm-version 5.7 --ignore L
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>

// A bfloat16 pair takes {} (zero in both halves), written with HIP's type name; any
// other list is left, with a warning.
__global__ void clear(__hip_bfloat162* out, nv_bfloat162 seed) {
  nv_bfloat162 acc;
  acc = __hip_bfloat162{};
  __hip_bfloat162 other;
  other = {0};
  out[threadIdx.x] = __hadd2(acc, __hadd2(other, seed));
}
