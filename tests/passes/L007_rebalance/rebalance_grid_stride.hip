// cu2hip-options: --ignore F
// Grid-stride kernels cover their elements with any grid: a fixed grid is sized from the
// device's compute units at run time, a ceiling-division grid is recomputed, and a grid
// computed at run time stays.
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(256) saxpy(const float *x, float *y, float a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

// cu2hip (L008): the number of blocks of `threads` threads that fills every
// multiprocessor of the current device, asked of the runtime once. 2048 threads are
// resident per compute unit on CDNA (32 waves of 64) and per SM on A100, H100 and H200.
// A grid-stride kernel covers all its elements with any grid.
static inline unsigned cu2hip_resident_blocks(unsigned threads) {
  static int units = 0;
  if (units <= 0) {
    int device = 0;
    if (hipGetDevice(&device) != hipSuccess ||
        hipDeviceGetAttribute(&units, hipDeviceAttributeMultiprocessorCount, device) != hipSuccess || units <= 0) {
      (void)hipGetLastError();
      units = 1;
    }
  }
  return (unsigned)units * (2048u / threads);
}

void run(const float *x, float *y, int n, int units) {
    saxpy<<<cu2hip_resident_blocks(256), 256>>>(x, y, 2.0f, n);
    saxpy<<<cu2hip_resident_blocks(256), 256>>>(x, y, 2.0f, n);
    saxpy<<<(n + 255) / 256, 256>>>(x, y, 2.0f, n);
    saxpy<<<units * 8, 256>>>(x, y, 2.0f, n);
    saxpy<<<4096, 256>>>(x, y, 2.0f, n);
}
