// cu2hip-options: --ignore W
#include <hip/hip_runtime.h>
#include <climits>

// Masks proven full below HIP 6.2: each call becomes the mask-less builtin.
constexpr unsigned kAllLanes = 0xFFFFFFFFu;

__global__ void reduce(const float* in, float* out, unsigned* votes) {
  float v = in[threadIdx.x];
  v += __shfl_down(v, 16);
  v += __shfl_down(v, 8);
  v += __shfl_xor(v, 4);
  v += __shfl_xor(v, 2);
  // __activemask() names exactly the lanes that reach the call: what the mask-less form does.
  v += __shfl(v, 0);
  unsigned long long any = __ballot(v > 0.0f);
  // Elsewhere __activemask() is __ballot(1).
  unsigned long long active = __ballot(1);
  votes[threadIdx.x] = (unsigned)(any + active);
  out[threadIdx.x] = v;
}

namespace lanes {
const unsigned int every = ~0u;
__global__ void vote(const int* in, int* out) { out[threadIdx.x] = __any(in[threadIdx.x] > 0); }
}

// A local set from __activemask() and never assigned names the lanes that reach its calls.
__device__ float broadcast(float v) {
  unsigned active = __ballot(1);
  return __shfl(v, 0);
}
// A parameter to which every call of this (source) file passes a full mask.
__device__ __forceinline__ float fold(unsigned mask, float v) { return v + __shfl_down(v, 1); }
__global__ void folds(float* a) { a[threadIdx.x] = fold(0xffffffff, a[threadIdx.x]) + fold(kAllLanes, a[0]); }
