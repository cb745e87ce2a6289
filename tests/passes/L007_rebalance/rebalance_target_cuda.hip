// cu2hip-options: --target cuda --ignore F
// With --target cuda the launches move the same way, in CUDA (checked on NVIDIA hardware).
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256) saxpy(const float *x, float *y, float a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
__global__ void __launch_bounds__(256) scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}

// cu2hip (L008): the number of blocks of `threads` threads that fills every
// multiprocessor of the current device, asked of the runtime once. 2048 threads are
// resident per compute unit on CDNA (32 waves of 64) and per SM on A100, H100 and H200.
// A grid-stride kernel covers all its elements with any grid.
static inline unsigned cu2hip_resident_blocks(unsigned threads) {
  static int units = 0;
  if (units <= 0) {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&units, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || units <= 0) {
      (void)cudaGetLastError();
      units = 1;
    }
  }
  return (unsigned)units * (2048u / threads);
}

void run(const float *x, float *y, int n) {
    saxpy<<<cu2hip_resident_blocks(256), 256>>>(x, y, 2.0f, n);
    scale<<<(n + 255) / 256, 256>>>(y, 0.5f, n);
}
