#include <hip/hip_runtime.h>
// cu2hip-options: --rocm-version 7.0
// HIP 7.0 has __syncwarp: nothing to do.
__global__ void k(int *s) {
  s[threadIdx.x] = 1;
  __syncwarp();
}
