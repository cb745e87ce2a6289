// cu2hip-options: --hip-kernel-execution-syntax --only hipify
#include <hip/hip_runtime.h>

__global__ void fill(float* a, float v) { a[threadIdx.x] = v; }

void run(float* a, dim3 dim3Grid, hipStream_t s) {
  // Braces do not protect a comma from a macro: dim3{...} is wrapped in dim3().
  hipLaunchKernelGGL(fill, dim3(dim3{2, 2}), dim3(dim3{32, 2}), 0, 0, a, 1.0f);
  // A variable whose name starts with dim3 is no dim3(...) call.
  hipLaunchKernelGGL(fill, dim3(dim3Grid), dim3(64), 0, s, a, 2.0f);
  // Blanks between >>> and ( go; a comment stays.
  hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, a, 3.0f);
  hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0 /* a comment */ , a, 4.0f);
  // hipify-clang keeps a dim3(...) call as it is.
  hipLaunchKernelGGL(fill, dim3(1, 1), dim3(64), 0, 0, a, 5.0f);
}
