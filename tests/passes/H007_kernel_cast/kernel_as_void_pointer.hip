// cu2hip-options: --rocm-version 6.0 --ignore L
#include <hip/hip_runtime.h>

__global__ void k(float *x) { x[threadIdx.x] = 0; }
template <typename T> __global__ void t(T *x) { x[threadIdx.x] = 0; }

void f(float *x, void *raw) {
  hipFuncAttributes attr;
  hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(k));
  hipFuncSetCacheConfig(reinterpret_cast<const void*>(t<float>), hipFuncCachePreferL1);
  hipFuncSetAttribute(reinterpret_cast<const void*>(k), hipFuncAttributeMaxDynamicSharedMemorySize, 1024);
  int blocks = 0, grid = 0, block = 0;
  hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reinterpret_cast<const void*>(k), 256, 0);
  hipOccupancyMaxPotentialBlockSize(&grid, &block, reinterpret_cast<const void*>(k), 0, 0);
  void *args[] = {&x};
  hipLaunchKernel(reinterpret_cast<const void*>(k), dim3(1), dim3(32), args, 0, 0);
  // Already a pointer to void: left as it is.
  hipLaunchKernel((const void *)k, dim3(1), dim3(32), args, 0, 0);
  hipFuncGetAttributes(&attr, reinterpret_cast<const void *>(k));
}

void g(float **p, float **q) {
  hipHostMalloc((void **)p, 64, hipHostMallocDefault);
  hipHostMalloc(q, 64, hipHostMallocDefault);   // the C++ template with flags: unchanged but renamed
}
