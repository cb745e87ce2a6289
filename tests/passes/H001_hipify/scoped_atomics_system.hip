#include <hip/hip_runtime.h>

// System-scope atomics (visible to the host and to peer GPUs): HIP has the nine
// `_system` forms under CUDA's names from HIP 4.3 (int, unsigned, unsigned long long,
// float, double; integers only for And, Or, Xor), so nothing is renamed.
__global__ void system_scope(int *i, unsigned int *u, unsigned long long *ull, float *f, double *d) {
  atomicAdd_system(i, 1);
  atomicAdd_system(u, 1u);
  atomicAdd_system(ull, 1ull);
  atomicAdd_system(f, 1.0f);
  atomicAdd_system(d, 1.0);
  atomicSub_system(i, 1);
  atomicSub_system(u, 1u);
  atomicExch_system(i, 2);
  atomicExch_system(f, 2.0f);
  atomicMin_system(i, -1);
  atomicMin_system(ull, 0ull);
  atomicMax_system(u, 7u);
  atomicMax_system(i, 7);
  atomicCAS_system(i, 2, 3);
  atomicCAS_system(ull, 2ull, 3ull);
  atomicAnd_system(u, 0xffu);
  atomicOr_system(i, 0x10);
  atomicXor_system(ull, 0x1ull);
}
