// cu2hip-options: --no-fuse
#include <hip/hip_runtime.h>

// A second include that maps to a header already included is removed, except inside a
// function, where it is part of the body's shape: there it is renamed.

__global__ void scale(float *x, int n) {
#include <hip/hip_runtime.h>
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
