// cu2hip-options: --rocm-version 6.3
#include <cuda_runtime.h>

// HIP has no block-scoped atomics and no atomicInc_system / atomicDec_system, and
// HIPIFY's tables list none of them: each use is an unknown CUDA API (H019), kept.
// The device-scope forms (atomicAdd, ...) are a correct, wider replacement.
__global__ void histogram(const int *keys, int n, int *bins, unsigned int *ring) {
  __shared__ int local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    atomicAdd_block(&local[keys[i] & 15], 1);
  }
  __syncthreads();
  if (threadIdx.x < 16) {
    atomicAdd_system(&bins[threadIdx.x], local[threadIdx.x]);
    atomicSub_block(&local[threadIdx.x], 1);
    atomicExch_block(&local[threadIdx.x], 0);
    atomicMin_block(&local[0], 1);
    atomicMax_block(&local[0], 2);
    atomicCAS_block(&local[1], 0, 1);
    atomicAnd_block(&local[2], 1);
    atomicOr_block(&local[3], 1);
    atomicXor_block(&local[4], 1);
    atomicInc_block(&ring[0], 15u);
    atomicDec_block(&ring[1], 15u);
    atomicInc_system(&ring[2], 15u);
    atomicDec_system(&ring[3], 15u);
  }
}
