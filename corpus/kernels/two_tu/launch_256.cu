// The second translation unit of the two_tu program: launches the header's kernel with
// 256 threads per block, the block size a constexpr.
#include "heavy.cuh"

constexpr int kLargeBlock = 256;

void launch_256(const float *in, float *out, int n, int passes) {
  two_tu_heavy<<<(n + kLargeBlock - 1) / kLargeBlock, kLargeBlock>>>(in, out, n, passes);
  CHECK(cudaGetLastError());
}
