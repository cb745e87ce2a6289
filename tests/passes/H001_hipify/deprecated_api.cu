#include <cuda_runtime.h>
#include <cuda_profiler_api.h>

void legacy(cudaArray_t dst, const float* src, size_t bytes) {
  // Deprecated in CUDA: translated, with a warning.
  cudaThreadSynchronize();
  // Deprecated in CUDA and in HIP: translated, one warning naming both.
  cudaMemcpyToArray(dst, 0, 0, src, bytes, cudaMemcpyHostToDevice);
  // Deprecated on the HIP side only.
  cudaProfilerStart();
  cudaThreadExit();
}
