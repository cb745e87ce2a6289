#include <cstdio>
#include <cstdlib>
#include "histogram.h"

// Per-block counts in shared memory, then one atomic add per bin and block.
static __global__ void histogram_kernel(const float *x, int n, int *counts) {
  __shared__ int local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[bin_of(x[i])], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&counts[b], local[b]);
}

void histogram(const float *x, int n, int *counts) {
  if (cudaMemset(counts, 0, kBins * sizeof(int)) != cudaSuccess) {
    std::printf("FAIL make_histogram: cudaMemset\n");
    std::exit(1);
  }
  histogram_kernel<<<32, 256>>>(x, n, counts);
  cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    std::printf("FAIL make_histogram: histogram_kernel: %s\n", cudaGetErrorString(status));
    std::exit(1);
  }
}
