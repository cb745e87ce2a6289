// cu2hip-options: --target cuda --ignore F
// With --target cuda the launches move the same way, in CUDA (checked on NVIDIA hardware).
#include <cuda_runtime.h>

__global__ void saxpy(const float *x, float *y, float a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
__global__ void scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}

void run(const float *x, float *y, int n) {
    saxpy<<<32, 128>>>(x, y, 2.0f, n);
    scale<<<(n + 63) / 64, 64>>>(y, 0.5f, n);
}
