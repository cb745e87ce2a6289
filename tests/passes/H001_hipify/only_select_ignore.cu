// cu2hip-options: --only hipify --rocm-version 6.0 --ignore H012
#include <cuda_runtime.h>
void f() {
  cudaThreadSynchronize();
  cudaFree(0);  // cu2hip: ignore[H001]
}
