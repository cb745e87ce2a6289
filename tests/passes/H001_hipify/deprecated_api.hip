#include <hip/hip_runtime.h>
#include <hip/hip_runtime_api.h>

void legacy(hipArray_t dst, const float* src, size_t bytes) {
  // Deprecated in CUDA: translated, with a warning.
  hipDeviceSynchronize();
  // Deprecated in CUDA and in HIP: translated, one warning naming both.
  hipMemcpyToArray(dst, 0, 0, src, bytes, hipMemcpyHostToDevice);
  // Deprecated on the HIP side only.
  hipProfilerStart();
  hipDeviceReset();
}
