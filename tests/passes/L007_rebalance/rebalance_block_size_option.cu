// cu2hip-options: --block-size 128 --ignore F
// --block-size chooses the block rebalanced launches get.
#include <cuda_runtime.h>

__global__ void scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}

void run(float *x, int n) {
    scale<<<(n + 1023) / 1024, 1024>>>(x, 2.0f, n);
    scale<<<(n + 127) / 128, 128>>>(x, 2.0f, n);
}
