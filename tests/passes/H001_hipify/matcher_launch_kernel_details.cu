// cu2hip-options: --hip-kernel-execution-syntax --only hipify
#include <cuda_runtime.h>

__global__ void fill(float* a, float v) { a[threadIdx.x] = v; }

void run(float* a, dim3 dim3Grid, cudaStream_t s) {
  // Braces do not protect a comma from a macro: dim3{...} is wrapped in dim3().
  fill<<<dim3{2, 2}, dim3{32, 2}>>>(a, 1.0f);
  // A variable whose name starts with dim3 is no dim3(...) call.
  fill<<<dim3Grid, 64, 0, s>>>(a, 2.0f);
  // Blanks between >>> and ( go; a comment stays.
  fill<<<1, 64>>> (a, 3.0f);
  fill<<<1, 64>>> /* a comment */ (a, 4.0f);
  // hipify-clang keeps a dim3(...) call as it is.
  fill<<<dim3(1, 1), dim3(64)>>>(a, 5.0f);
}
