// Pattern 2: the error check after every launch synchronises the device (R005 reports it;
// the benchmark applies the reported fix, debug-only synchronisation, built with -DNDEBUG).
#define ITERS 1000   // fixed: a count the compile line could change would leave the loop unproven
#include "common.cuh"

static void run_pattern(float* acc, const float* in, int n) {
  for (int it = 0; it < ITERS; ++it) {
    add_scaled<<<(n + 255) / 256, 256>>>(acc, in, 1.0f, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
}

int main(int argc, char** argv) {
  const int failed = time_pattern(argc, argv, run_pattern, ITERS);
  CHECK(cudaDeviceSynchronize());
  return failed;
}
