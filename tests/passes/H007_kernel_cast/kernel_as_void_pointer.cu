// cu2hip-options: --rocm-version 6.0 --ignore L
#include <cuda_runtime.h>

__global__ void k(float *x) { x[threadIdx.x] = 0; }
template <typename T> __global__ void t(T *x) { x[threadIdx.x] = 0; }

void f(float *x, void *raw) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, k);
  cudaFuncSetCacheConfig(t<float>, cudaFuncCachePreferL1);
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
  int blocks = 0, grid = 0, block = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 256, 0);
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, k, 0, 0);
  void *args[] = {&x};
  cudaLaunchKernel(k, dim3(1), dim3(32), args, 0, 0);
  // Already a pointer to void: left as it is.
  cudaLaunchKernel((const void *)k, dim3(1), dim3(32), args, 0, 0);
  cudaFuncGetAttributes(&attr, reinterpret_cast<const void *>(k));
}

void g(float **p, float **q) {
  cudaMallocHost((void **)p, 64);
  cudaMallocHost(q, 64, cudaHostAllocDefault);   // the C++ template with flags: unchanged but renamed
}
