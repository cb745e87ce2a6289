// cu2hip-options: --rocm-version 6.3
#include <cuda_bf16.h>
#include <cuda_fp8.h>

// `__nv_*`, the reduced-precision types and intrinsics: a known one is renamed (or,
// with no HIP counterpart, an error); one no table lists is reported.
static __device__ int __nv_local_swap(int x) { return x; }

__device__ float widen(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ double root(double x) { return __nv_fp128_sqrt(x); }
__device__ unsigned char narrow(float x) { return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3); }
__device__ int same(int x) { return __nv_local_swap(x); }
