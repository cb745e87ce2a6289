// Pattern 5: a stream and an event created and destroyed at every iteration (R003 hoists them).
#define ITERS 1000   // fixed: a count the compile line could change would leave the loop unproven
#include "common.cuh"

static void run_pattern(float* acc, const float* in, int n) {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t done;
  CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  for (int it = 0; it < ITERS; ++it) {
    add_scaled<<<(n + 255) / 256, 256, 0, s>>>(acc, in, 1.0f, n);
    CHECK(cudaEventRecord(done, s));
    CHECK(cudaEventSynchronize(done));
  }
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaEventDestroy(done));
}

int main(int argc, char** argv) { return time_pattern(argc, argv, run_pattern, ITERS); }
