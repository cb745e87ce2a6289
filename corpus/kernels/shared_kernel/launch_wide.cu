// The widest launch of the shared_kernel program: 384 threads per block, a dim3 of a
// constant (`dim3 block(kWide)`, which C++ reads as a variable, not a function).
#include "shared.cuh"

constexpr int kWide = 384;

void launch_384(const float *in, float *out, int n, int passes) {
  dim3 block(kWide);
  dim3 grid((n + kWide - 1) / kWide);
  shared_heavy<<<grid, block>>>(in, out, n, passes);
  CHECK(cudaGetLastError());
}
