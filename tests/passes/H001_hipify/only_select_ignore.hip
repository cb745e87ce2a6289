// cu2hip-options: --only hipify --rocm-version 6.0 --ignore H012
#include <hip/hip_runtime.h>
void f() {
  hipDeviceSynchronize();
  cudaFree(0);  // cu2hip: ignore[H001]
}
