#include <hip/hip_runtime.h>
// cu2hip-options: --rocm-version 6.0
// __syncwarp below HIP 7.0: HIP 7.0's definition, one expression wherever it stands; a
// full or active mask is dropped, another mask is reported (H014).
__global__ void k(int *s, unsigned mask) {
  s[threadIdx.x] = 1;
  (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
  if (s[0]) (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
  for (int i = 0; i < 2; ++i) (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
  __syncwarp(mask);
}
