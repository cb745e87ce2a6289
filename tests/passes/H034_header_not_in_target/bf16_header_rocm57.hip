// cu2hip-options: --rocm-version 5.7
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>

// From ROCm 5.7 the header and its names map.
__global__ void widen(const __hip_bfloat16* in, float* out) { out[threadIdx.x] = __bfloat162float(in[threadIdx.x]); }
