// A kernel of a header, launched from two translation units with different block sizes.
#pragma once
__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}
// Launched by no file of the project: a library user's.
__global__ void unused(float *x) { x[threadIdx.x] = 0; }
