// Pattern 4b: a loop of one short launch on the default stream and nothing else, the
// repeat loop of most benchmark programs (`for (i < repeat) k<<<g, b>>>(...)`). R012
// captures 16 launches in a row as one graph on a stream of its own and launches the
// graph on the default stream every 16th iteration. What is measured: the dispatch of 16
// launches against one graph of 16, plus the capture and instantiation, once.
#define ITERS 1000   // fixed: a count the compile line could change would leave the loop unproven
#include "common.cuh"

__global__ void __launch_bounds__(256) add_staged(float* acc, const float* in, float a, int n) {
  __shared__ float t[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) acc[i] += a * t[threadIdx.x];
}

static void run_pattern(float* acc, const float* in, int n) {
  for (int it = 0; it < ITERS; ++it) {
    add_staged<<<(n + 255) / 256, 256>>>(acc, in, 0.25f, n);
  }
  CHECK(cudaDeviceSynchronize());
}

int main(int argc, char** argv) { return time_pattern(argc, argv, run_pattern, ITERS); }
