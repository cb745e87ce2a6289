// cu2hip-options: --ignore L
#include <cuda_runtime.h>

// The file does not say the argument's type: a warning with the cast to write, no edit.
template <typename T>
__device__ int first_set(T bits) { return __ffsll(bits); }

__device__ unsigned long long mask_of(int lane);
__device__ int lowest(int lane) {
  auto m = mask_of(lane);
  return __ffsll(m) + __ffsll(mask_of(lane + 1)) + first_set(1ll);
}
