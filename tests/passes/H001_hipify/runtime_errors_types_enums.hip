#include <hip/hip_runtime.h>
#include <cstdio>

#define CHECK(call)                                                        \
  do {                                                                     \
    hipError_t err = (call);                                              \
    if (err != hipSuccess) {                                              \
      fprintf(stderr, "CUDA error: %s\n", hipGetErrorString(err));        \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main() {
  int device = 0;
  CHECK(hipGetDevice(&device));
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, device));
  int max_threads = 0;
  CHECK(hipDeviceGetAttribute(&max_threads, hipDeviceAttributeMaxThreadsPerBlock, device));
  hipFuncCache_t cache = hipFuncCachePreferL1;
  CHECK(hipDeviceSetCacheConfig(cache));
  hipError_t last = hipGetLastError();
  if (last == hipErrorOutOfMemory) return 2;
  printf("%s: %d threads\n", prop.name, max_threads);
  return 0;
}
