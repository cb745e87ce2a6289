#include "stats/stats.h"

namespace stats {

// One partial sum per block in shared memory, then one atomic add per block.
static __global__ void sum_kernel(const float *x, float *result, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

void sum(const float *x, float *result, int n) {
  check(cudaMemset(result, 0, sizeof(float)), "cudaMemset");
  sum_kernel<<<(n + 255) / 256, 256>>>(x, result, n);
  check(cudaGetLastError(), "sum_kernel");
}

}  // namespace stats
