#include <hip/hip_runtime.h>
// cu2hip-options: --ignore L009
// No #include at all: the HIP runtime header goes at the very top (HIPIFY adds a blank line first; cu2hip does not).
__global__ void __launch_bounds__(64) scale(float* a, float s) { a[threadIdx.x] *= s; }

void run(float* d) {
  scale<<<1, 64>>>(d, 2.0f);
  hipDeviceSynchronize();
}
