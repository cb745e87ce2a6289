#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err = (call);                                              \
    if (err != cudaSuccess) {                                              \
      fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err));        \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main() {
  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  int max_threads = 0;
  CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, device));
  cudaFuncCache cache = cudaFuncCachePreferL1;
  CHECK(cudaDeviceSetCacheConfig(cache));
  cudaError_t last = cudaGetLastError();
  if (last == cudaErrorMemoryAllocation) return 2;
  printf("%s: %d threads\n", prop.name, max_threads);
  return 0;
}
