// Pattern 3: a malloc'd host buffer copied down and up at every iteration (R007 allocates
// it pinned: cudaMallocHost/cudaFreeHost).
#define ITERS 100    // fixed: a count the compile line could change would leave the loop unproven
#include "common.cuh"

static void run_pattern(float* acc, const float* in, int n) {
  float* h = (float*)malloc(n * sizeof(float));
  float* tmp;
  CHECK(cudaMalloc(&tmp, n * sizeof(float)));
  for (int it = 0; it < ITERS; ++it) {
    CHECK(cudaMemcpy(h, in, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(tmp, h, n * sizeof(float), cudaMemcpyHostToDevice));
    add_scaled<<<(n + 255) / 256, 256>>>(acc, tmp, 1.0f, n);
  }
  CHECK(cudaFree(tmp));
  free(h);
}

int main(int argc, char** argv) { return time_pattern(argc, argv, run_pattern, ITERS); }
