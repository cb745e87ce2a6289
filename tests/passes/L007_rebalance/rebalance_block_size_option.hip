// cu2hip-options: --block-size 128 --ignore F
// --block-size chooses the block rebalanced launches get.
#include <hip/hip_runtime.h>

__global__ void __launch_bounds__(128) scale(float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i];
}

void run(float *x, int n) {
    scale<<<(n + 127) / 128, 128>>>(x, 2.0f, n);
    scale<<<(n + 127) / 128, 128>>>(x, 2.0f, n);
}
