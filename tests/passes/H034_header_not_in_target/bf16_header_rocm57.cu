// cu2hip-options: --rocm-version 5.7
#include <cuda_runtime.h>
#include <cuda_bf16.h>

// From ROCm 5.7 the header and its names map.
__global__ void widen(const __nv_bfloat16* in, float* out) { out[threadIdx.x] = __bfloat162float(in[threadIdx.x]); }
