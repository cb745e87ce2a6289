// cu2hip-options: --ignore L
#include <hip/hip_runtime.h>

__global__ void fill(float* a, float v) { a[threadIdx.x] = v; }

int main() {
  float* d = nullptr;
  hipMalloc(&d, 64 * sizeof(float));
  hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, d, 1.0f);
  hipDeviceSynchronize();
  hipFree(d);
  return 0;
}
