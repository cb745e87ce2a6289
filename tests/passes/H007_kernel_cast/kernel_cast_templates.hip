// cu2hip-options: --rocm-version 6.0 --ignore L
#include <hip/hip_runtime.h>

template <typename T> __global__ void scale(T* x, T s) { x[threadIdx.x] *= s; }
template <typename T, int kValue> __global__ void fill(T* x) { x[threadIdx.x] = T(kValue); }

// A template kernel in a template function: cast as written, for each instantiation.
template <typename T>
int resident_blocks(int threads) {
  int blocks = 0;
  hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reinterpret_cast<const void*>(scale<T>), threads, 0);
  return blocks;
}

void f(float* x, hipStream_t s) {
  int grid = 0, block = 0;
  // CUDA's templates default the shared memory size and the block size limit; HIP's
  // templates taking the kernel do too, and a cast kernel picks them.
  hipOccupancyMaxPotentialBlockSize(&grid, &block, reinterpret_cast<const void*>(scale<float>));
  hipOccupancyMaxPotentialBlockSize(&grid, &block, reinterpret_cast<const void*>(fill<float, 4>), 0, 0);
  hipOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, reinterpret_cast<const void*>(scale<double>), 0, 0, hipOccupancyDefault);
  hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&grid, reinterpret_cast<const void*>(fill<double, 2>), 64, 0, hipOccupancyDefault);
  float v = 2.0f;
  void* args[] = {&x, &v};
  hipLaunchKernel(reinterpret_cast<const void*>(scale<float>), dim3(1), dim3(32), args, 0, s);
  hipLaunchKernel(reinterpret_cast<const void*>(scale<float>), dim3(1), dim3(32), args);
  hipLaunchCooperativeKernel(reinterpret_cast<const void*>(fill<float, 8>), dim3(1), dim3(32), args, 0, s);
  // hipLaunchCooperativeKernel declares no default shared memory size or stream.
  hipLaunchCooperativeKernel(reinterpret_cast<const void*>(fill<float, 8>), dim3(1), dim3(32), args, 0, 0);
  hipLaunchCooperativeKernel(reinterpret_cast<const void*>(fill<float, 8>), dim3(1), dim3(32), args, 256, 0);
  // Already a pointer to void: left as it is.
  hipLaunchKernel((void*)scale<float>, dim3(1), dim3(32), args, 0, s);
  hipLaunchKernel(reinterpret_cast<const void*>(&scale<float>), dim3(1), dim3(32), args, 0, s);
  hipFuncSetCacheConfig(reinterpret_cast<const void*>(scale<double>), hipFuncCachePreferShared);
  (void)resident_blocks<double>(128);
}
