// cu2hip-options: --ignore L009
#include <hip/hip_runtime.h>

// Without --hip-kernel-execution-syntax, <<<>>> stays: HIP-Clang compiles it.
__global__ void __launch_bounds__(64) fill(float* a, float v) { a[threadIdx.x] = v; }

void run(float* a, hipStream_t s) {
  fill<<<1, 64, 0, s>>>(a, 1.0f);
}
