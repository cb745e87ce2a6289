#include <cuda_runtime.h>

__constant__ float c_table[4];

void broken(float* d, const float* h, int n) {
  // A macro that takes a type: tree-sitter cannot parse it; the rename inside still happens.
  COPY(float, d, h, cudaMemcpyHostToDevice);
  // A loop macro parsed as a nested function: renames only, no HIP_SYMBOL.
  FOR_EACH(i, n) {
    cudaMemcpyToSymbol(c_table, h, sizeof(float));
  }
  cudaDeviceSynchronize();
}
