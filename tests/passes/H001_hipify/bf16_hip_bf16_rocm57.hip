// cu2hip-options: --rocm-version 5.7
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>

// Target ROCm 5.7: cuda_bf16.h becomes hip/hip_bf16.h and the bf16 names HIP's; the raw
// storage types (__hip_bfloat16_raw) arrive in ROCm 6.2, so that one is kept, an error.
__global__ void axpy_bf16(float alpha, const __hip_bfloat16 *x, __hip_bfloat16 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __float2bfloat16(alpha * __bfloat162float(x[i]) + __bfloat162float(y[i]));
}

__global__ void pairs(const float2 *in, __hip_bfloat162 *out, __hip_bfloat16 *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __hip_bfloat162 p = __float22bfloat162_rn(in[i]);
  out[i] = __halves2bfloat162(__high2bfloat16(p), __low2bfloat16(p));
  sum[i] = __hadd(__low2bfloat16(p), __high2bfloat16(p));
}

__device__ unsigned short bits(__hip_bfloat16 v) { return __bfloat16_as_ushort(v); }
__device__ __nv_bfloat16_raw raw(__hip_bfloat16 v) { return v; }

// No HIP counterpart in any release: an error each, whatever the target.
__device__ __hip_bfloat162 pack(float a, float b) { return __floats2bfloat162_rn(a, b); }
__device__ __hip_bfloat16 round_near(float a) { return __float2bfloat16_rn(a); }
