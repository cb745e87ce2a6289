// Pattern 1: a scratch buffer allocated and freed at every iteration (R001 hoists it).
#define ITERS 1000   // fixed: a count the compile line could change would leave the loop unproven
#include "common.cuh"

static void run_pattern(float* acc, const float* in, int n) {
  float* tmp;
  CHECK(cudaMalloc(&tmp, n * sizeof(float)));
  for (int it = 0; it < ITERS; ++it) {
    copy_scaled<<<(n + 255) / 256, 256>>>(tmp, in, 1.0f, n);
    add_scaled<<<(n + 255) / 256, 256>>>(acc, tmp, 1.0f, n);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaFree(tmp));
}

int main(int argc, char** argv) { return time_pattern(argc, argv, run_pattern, ITERS); }
