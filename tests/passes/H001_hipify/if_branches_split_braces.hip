// cu2hip-options: --hip-kernel-execution-syntax --ignore L
#include <hip/hip_runtime.h>
__constant__ float coeffs[4];
__global__ void scale(float *p, int n) { int i = threadIdx.x; if (i < n) p[i] *= coeffs[0]; }

// Each branch opens the block that the common code closes: the file as a whole does
// not parse, each configuration does, and both get the structural rewrites.
void upload(float *d, const float *h, int n, hipStream_t s) {
#if defined(USE_ASYNC)
  if (s != 0) {
    hipMemcpyToSymbolAsync(HIP_SYMBOL(coeffs), h, 4 * sizeof(float), 0, hipMemcpyHostToDevice, s);
    hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, s, d, n);
#elif defined(USE_LEGACY)
  for (int k = 0; k < 1; ++k) {
    hipMemcpyToSymbol(HIP_SYMBOL(coeffs), h, 4 * sizeof(float));
    hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, 0, d, n);
#else
  {
    hipMemcpyToSymbol(HIP_SYMBOL(coeffs), h, 4 * sizeof(float));
    hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, 0, d, n);
#endif
  }
  hipDeviceSynchronize();
}
