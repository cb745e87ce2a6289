#include "stats/stats.h"

namespace stats {

static __global__ void scale_add_kernel(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void scale_add(float a, const float *x, float *y, int n) {
  const int block = 256;
  scale_add_kernel<<<(n + block - 1) / block, block>>>(a, x, y, n);
  check(cudaGetLastError(), "scale_add_kernel");
}

}  // namespace stats
