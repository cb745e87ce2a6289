#include <cuda_runtime.h>

__constant__ float c_coeffs[16];
__device__ int d_counter;

void symbols(const float* h_coeffs, int* h_counter, cudaStream_t s) {
  cudaMemcpyToSymbol(c_coeffs, h_coeffs, sizeof(c_coeffs));
  cudaMemcpyToSymbolAsync(c_coeffs, h_coeffs, sizeof(float), 0, cudaMemcpyHostToDevice, s);
  cudaMemcpyFromSymbol(h_counter, d_counter, sizeof(int));
  cudaMemcpyFromSymbolAsync(h_counter, d_counter, sizeof(int), 0, cudaMemcpyDeviceToHost, s);
  void* addr = nullptr;
  cudaGetSymbolAddress(&addr, d_counter);
  size_t size = 0;
  cudaGetSymbolSize(&size, c_coeffs);
  // Already wrapped: left alone.
  cudaMemcpyToSymbol(HIP_SYMBOL(d_counter), h_counter, sizeof(int));
}
