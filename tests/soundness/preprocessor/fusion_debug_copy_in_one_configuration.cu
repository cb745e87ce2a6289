// soundness: must-refuse
// why: with -DDEBUG_DUMP the host copies and reads y between the launches: fused, the copy would read y after add ran (or never see it), and the fused kernel would skip the store the host reads
// no-edit: F001
// expect: F002 "preproc ifdef between the launches"
// options: --target cuda
#include <cstdio>
__global__ void scale(float* y, const float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2 * x[i]; }
__global__ void add(float* z, const float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) z[i] = y[i] + 1; }
void run(float* x, float* y, float* z, float* h, int n) {
  scale<<<(n + 255) / 256, 256>>>(y, x, n);
#ifdef DEBUG_DUMP
  cudaMemcpy(h, y, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
#endif
  add<<<(n + 255) / 256, 256>>>(z, y, n);
}
