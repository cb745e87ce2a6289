// cu2hip-options: --no-rebalance --ignore F
// --no-rebalance keeps every launch as written (the bounds follow the launches).
#include <cuda_runtime.h>

__global__ void scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}

void run(float *x, int n) {
    scale<<<(n + 1023) / 1024, 1024>>>(x, 2.0f, n);
}
