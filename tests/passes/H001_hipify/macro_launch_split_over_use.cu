// cu2hip-options: --hip-kernel-execution-syntax --only hipify
#include <cuda_runtime.h>

__global__ void fill(float* a, float v) { a[threadIdx.x] = v; }

// The argument list is at the use: no whole launch in the body, none at the use.
#define ON_GRID(kern, g) kern<<<(g), 64>>>
// The configuration alone.
#define CONFIG(g, b) <<<(g), (b)>>>
// Both dimensions from one macro: the launch as written has one configuration expression.
#define DIMS(n) ((n) + 63) / 64, 64
// The launch is a value in the body: hipLaunchKernelGGL is a statement.
#define LAUNCH_AND_CHECK(kern, ...) (kern<<<1, 64>>>(__VA_ARGS__), cudaGetLastError())

cudaError_t run(float* a, int n) {
  ON_GRID(fill, 4)(a, 1.0f);
  fill CONFIG(1, 64)(a, 1.5f);
  fill<<<DIMS(n)>>>(a, 2.0f);
  cudaError_t e = LAUNCH_AND_CHECK(fill, a, 3.0f);
  if (e != cudaSuccess) return e;
  return fill<<<1, 64>>>(a, 4.0f), cudaGetLastError();
}
