// cu2hip-options: --rocm-version 6.0 --ignore L
#include <cuda_runtime.h>

template <typename T> __global__ void scale(T* x, T s) { x[threadIdx.x] *= s; }
template <typename T, int kValue> __global__ void fill(T* x) { x[threadIdx.x] = T(kValue); }

// A template kernel in a template function: cast as written, for each instantiation.
template <typename T>
int resident_blocks(int threads) {
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale<T>, threads, 0);
  return blocks;
}

void f(float* x, cudaStream_t s) {
  int grid = 0, block = 0;
  // CUDA's templates default the shared memory size and the block size limit; HIP's
  // templates taking the kernel do too, and a cast kernel picks them.
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, scale<float>);
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, fill<float, 4>, 0, 0);
  cudaOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, scale<double>, 0, 0, cudaOccupancyDefault);
  cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&grid, fill<double, 2>, 64, 0, cudaOccupancyDefault);
  float v = 2.0f;
  void* args[] = {&x, &v};
  cudaLaunchKernel(scale<float>, dim3(1), dim3(32), args, 0, s);
  cudaLaunchKernel(scale<float>, dim3(1), dim3(32), args);
  cudaLaunchCooperativeKernel(fill<float, 8>, dim3(1), dim3(32), args, 0, s);
  // hipLaunchCooperativeKernel declares no default shared memory size or stream.
  cudaLaunchCooperativeKernel(fill<float, 8>, dim3(1), dim3(32), args);
  cudaLaunchCooperativeKernel(fill<float, 8>, dim3(1), dim3(32), args, 256);
  // Already a pointer to void: left as it is.
  cudaLaunchKernel((void*)scale<float>, dim3(1), dim3(32), args, 0, s);
  cudaLaunchKernel(reinterpret_cast<const void*>(&scale<float>), dim3(1), dim3(32), args, 0, s);
  cudaFuncSetCacheConfig(scale<double>, cudaFuncCachePreferShared);
  (void)resident_blocks<double>(128);
}
