// cu2hip-options: --ignore L
#include <hip/hip_runtime.h>

// C++17 has no `register` (hipcc rejects it): dropped from locals, loop variables and
// parameters, whatever their type or qualifiers.
__device__ float dot(const float* a, const float* b, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

__global__ void scale(const float* in, float* out, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long big = 1ull, *p = &big;   // a tab after it goes with it
  static_assert(sizeof(big) == 8, "");
  if (gid < n) out[gid] = 2.0f * in[gid] + dot(in, in, 0) + (float)(*p - 1ull);
}

// Words and comments that say register are not the keyword.
__device__ int registered(int register_count) { return register_count; /* register */ }

// A macro that stands for the keyword stands for nothing.
#define REG
__device__ int twice(int x) { REG int y = 2 * x; return y; }
