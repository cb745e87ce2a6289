// cu2hip-options: --ignore L009
#include <cuda_runtime.h>

// Without --hip-kernel-execution-syntax, <<<>>> stays: HIP-Clang compiles it.
__global__ void fill(float* a, float v) { a[threadIdx.x] = v; }

void run(float* a, cudaStream_t s) {
  fill<<<1, 64, 0, s>>>(a, 1.0f);
}
