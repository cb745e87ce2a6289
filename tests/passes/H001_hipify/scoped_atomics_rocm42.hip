// cu2hip-options: --rocm-version 4.2
#include <hip/hip_runtime.h>

// Below HIP 4.3 the `_system` atomics do not exist: each is kept, with an error.
__global__ void flags(int *flag, unsigned int *count, float *total) {
  if (atomicCAS_system(flag, 0, 1) == 0) {
    atomicAdd_system(count, 1u);
    atomicExch_system(total, 0.0f);
  }
  atomicAdd(count, 1u);
}
