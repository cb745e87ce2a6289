// cu2hip-options: --rocm-version 6.0 --ignore L
#include <cuda_runtime.h>

__global__ void add_kernel(float* x) { x[threadIdx.x] += 1.0f; }
template <typename T> __global__ void zero(T* x) { x[threadIdx.x] = T(0); }

// The kernel is a macro parameter: the cast goes around it in the definition, and
// holds whatever the use passes (a name, a template instance, a pasted name).
#define KERNEL_ATTRIBUTES(kern, attr) cudaFuncGetAttributes((attr), kern)
#define PREFER_L1(kern) cudaFuncSetCacheConfig(kern, cudaFuncCachePreferL1)
#define BEST_BLOCK(kern, grid, block) cudaOccupancyMaxPotentialBlockSize((grid), (block), kern, 0, 0)
#define OP_ATTRIBUTES(op, attr) cudaFuncGetAttributes((attr), op##_kernel)
#define LAUNCH_BY_POINTER(kern, args) cudaLaunchKernel(kern, dim3(1), dim3(32), (args), 0, 0)

void f(float* x) {
  cudaFuncAttributes attr;
  int grid = 0, block = 0;
  void* args[] = {&x};
  KERNEL_ATTRIBUTES(add_kernel, &attr);
  KERNEL_ATTRIBUTES(zero<float>, &attr);
  PREFER_L1(zero<double>);
  BEST_BLOCK(add_kernel, &grid, &block);
  OP_ATTRIBUTES(add, &attr);
  LAUNCH_BY_POINTER(add_kernel, args);
  LAUNCH_BY_POINTER((const void*)zero<float>, args);
}
