// The kernel of the shared_kernel program, and its 128-thread launch. Other translation
// units launch it through shared.cuh's declaration.
#include "shared.cuh"

__global__ void shared_heavy(const float *in, float *out, int n, int passes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = shared_work(in, i, passes);
}

void launch_128(const float *in, float *out, int n, int passes) {
  shared_heavy<<<(n + 127) / 128, 128>>>(in, out, n, passes);
  CHECK(cudaGetLastError());
}
