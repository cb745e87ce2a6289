// A header-only kernel: counts as fractions of the total.
#pragma once

static __global__ void normalize(const int *counts, float *fractions, int bins, int total) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < bins) fractions[b] = static_cast<float>(counts[b]) / static_cast<float>(total);
}
