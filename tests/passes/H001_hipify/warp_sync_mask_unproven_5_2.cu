// cu2hip-options: --ignore W
#include <cuda_runtime.h>

const unsigned kHalfWarp = 0x0000ffffu;
unsigned g_mask = 0xffffffffu;    // not const: another function may change it

// Not proven full: an error that gives the mask-less call to write, and no edit.
__global__ void partial(float* a, int kAllLanes) {
  float v = a[threadIdx.x];
  v += __shfl_down_sync(kHalfWarp, v, 8);
  v += __shfl_down_sync(g_mask, v, 4);
  v += __shfl_up_sync((unsigned short)-1, v, 1, 16);
  // A parameter shadows any constant of the same name.
  v += __shfl_xor_sync(kAllLanes, v, 1);
  int all = __all_sync(0x000000ff, v > 0.0f);
  unsigned long long same = __match_any_sync(0xffffffff, (int)v);
  a[threadIdx.x] = v + (float)all + (float)same;
}

// A parameter one call passes a partial mask to, and one whose function is also taken
// by address: not every mask it gets is full.
__device__ float fold_part(unsigned mask, float v) { return __shfl_down_sync(mask, v, 1); }
__device__ float fold_seen(unsigned mask, float v) { return __shfl_down_sync(mask, v, 1); }
__device__ float (*pick)(unsigned, float) = fold_seen;
__global__ void parts(float* a) { a[0] = fold_part(0xffffffff, a[0]) + fold_part(0xffff, a[1]) + fold_seen(~0u, a[2]); }
