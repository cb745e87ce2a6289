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
