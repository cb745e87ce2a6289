#include <hip/hip_runtime.h>

__constant__ float c_coeffs[16];
__device__ int d_counter;

void symbols(const float* h_coeffs, int* h_counter, hipStream_t s) {
  hipMemcpyToSymbol(HIP_SYMBOL(c_coeffs), h_coeffs, sizeof(c_coeffs));
  hipMemcpyToSymbolAsync(HIP_SYMBOL(c_coeffs), h_coeffs, sizeof(float), 0, hipMemcpyHostToDevice, s);
  hipMemcpyFromSymbol(h_counter, HIP_SYMBOL(d_counter), sizeof(int));
  hipMemcpyFromSymbolAsync(h_counter, HIP_SYMBOL(d_counter), sizeof(int), 0, hipMemcpyDeviceToHost, s);
  void* addr = nullptr;
  hipGetSymbolAddress(&addr, HIP_SYMBOL(d_counter));
  size_t size = 0;
  hipGetSymbolSize(&size, HIP_SYMBOL(c_coeffs));
  // Already wrapped: left alone.
  hipMemcpyToSymbol(HIP_SYMBOL(d_counter), h_counter, sizeof(int));
}
