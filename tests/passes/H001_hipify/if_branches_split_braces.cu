// cu2hip-options: --hip-kernel-execution-syntax --ignore L
#include <cuda_runtime.h>
__constant__ float coeffs[4];
__global__ void scale(float *p, int n) { int i = threadIdx.x; if (i < n) p[i] *= coeffs[0]; }

// Each branch opens the block that the common code closes: the file as a whole does
// not parse, each configuration does, and both get the structural rewrites.
void upload(float *d, const float *h, int n, cudaStream_t s) {
#if defined(USE_ASYNC)
  if (s != 0) {
    cudaMemcpyToSymbolAsync(coeffs, h, 4 * sizeof(float), 0, cudaMemcpyHostToDevice, s);
    scale<<<1, 64, 0, s>>>(d, n);
#elif defined(USE_LEGACY)
  for (int k = 0; k < 1; ++k) {
    cudaMemcpyToSymbol(coeffs, h, 4 * sizeof(float));
    scale<<<dim3(1), 64>>>(d, n);
#else
  {
    cudaMemcpyToSymbol(coeffs, h, 4 * sizeof(float));
    scale<<<1, 64>>>(d, n);
#endif
  }
  cudaDeviceSynchronize();
}
