#include <hip/hip_runtime.h>

void l2_and_planes(hipArray_t array) {
  // No HIP equivalents: one error per use, and the code is left as written.
  cudaCtxResetPersistingL2Cache();
  hipArray_t plane;
  cudaArrayGetPlane(&plane, array, 0);
  hipMalloc(&array, 16);
  cudaCtxResetPersistingL2Cache();
}
