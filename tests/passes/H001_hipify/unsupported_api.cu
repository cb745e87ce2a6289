#include <cuda_runtime.h>

void l2_and_planes(cudaArray_t array) {
  // No HIP equivalents: one error per use, and the code is left as written.
  cudaCtxResetPersistingL2Cache();
  cudaArray_t plane;
  cudaArrayGetPlane(&plane, array, 0);
  cudaMalloc(&array, 16);
  cudaCtxResetPersistingL2Cache();
}
