#include <hip/hip_runtime.h>
// `__activemask()` kept in an unsigned and used only as a mask: declared 64-bit.
__device__ int broadcast_first(int v) {
  unsigned long long m = __ballot(1);
  return __shfl(v, 0, 32);
}
