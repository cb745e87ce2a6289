// Pattern 1, the fix R002 names where hoisting is refused, applied by hand: stream-ordered
// allocation from the device's default pool, its release threshold raised once, so that a
// free returns the block to the pool and the next iteration's allocation reuses it.
#define ITERS 1000   // fixed: a count the compile line could change would leave the loop unproven
#include <cstdint>
#include "common.cuh"

static void run_pattern(float* acc, const float* in, int n) {
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t keep = UINT64_MAX;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  for (int it = 0; it < ITERS; ++it) {
    float* tmp;
    CHECK(cudaMallocAsync(&tmp, n * sizeof(float), 0));
    copy_scaled<<<(n + 255) / 256, 256>>>(tmp, in, 1.0f, n);
    add_scaled<<<(n + 255) / 256, 256>>>(acc, tmp, 1.0f, n);
    CHECK(cudaGetLastError());
    CHECK(cudaFreeAsync(tmp, 0));
  }
}

int main(int argc, char** argv) { return time_pattern(argc, argv, run_pattern, ITERS); }
