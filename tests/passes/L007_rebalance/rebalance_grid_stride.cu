// cu2hip-options: --ignore F
// Grid-stride kernels cover their elements with any grid: a fixed grid is sized from the
// device's compute units at run time, a ceiling-division grid is recomputed, and a grid
// computed at run time stays.
#include <cuda_runtime.h>

__global__ void saxpy(const float *x, float *y, float a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}

void run(const float *x, float *y, int n, int units) {
    saxpy<<<32, 128>>>(x, y, 2.0f, n);
    saxpy<<<64, 256>>>(x, y, 2.0f, n);
    saxpy<<<(n + 511) / 512, 512>>>(x, y, 2.0f, n);
    saxpy<<<units * 8, 1024>>>(x, y, 2.0f, n);
    saxpy<<<4096, 256>>>(x, y, 2.0f, n);
}
