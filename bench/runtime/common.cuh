// Shared by the runtime benchmark's programs: error checks, the timing loop's output.
// Each program's main() times `run_pattern` (the loop the runtime pass rewrites) with
// CUDA events over ITERS iterations, after one warm-up call, for each element count
// given on the command line, checks the result, and prints one JSON line per count:
// {"n": N, "iters": ITERS, "ms": total, "us_per_iter": ..., "ok": true}
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t err_ = (call);                                                       \
    if (err_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
      exit(2);                                                                       \
    }                                                                                \
  } while (0)

// ITERS: defined by each program before it includes this (the translator reads one file).
__global__ void add_scaled(float* acc, const float* src, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += a * src[i];
}

__global__ void copy_scaled(float* dst, const float* src, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = a * src[i];
}

// Times run(acc, in, n) (one call = ITERS iterations) and checks acc == want * in.
template <typename Run>
static int time_pattern(int argc, char** argv, Run run, float per_call) {
  int failed = 0;
  for (int k = 1; k < argc; ++k) {
    const int n = atoi(argv[k]);
    float* h = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 13) * 0.5f;
    float *in, *acc;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&acc, n * sizeof(float)));
    CHECK(cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(acc, 0, n * sizeof(float)));
    run(acc, in, n);                                  // warm-up (and the first half of the check)
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start, 0));
    run(acc, in, n);
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    float* got = (float*)malloc(n * sizeof(float));
    CHECK(cudaMemcpy(got, acc, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      const float want = 2.0f * per_call * h[i];
      if (std::fabs(got[i] - want) > 1e-3f * (1.0f + std::fabs(want))) ++bad;
    }
    failed |= bad != 0;
    printf("{\"n\": %d, \"iters\": %d, \"ms\": %.4f, \"us_per_iter\": %.3f, \"ok\": %s}\n", n, ITERS, ms,
           1000.0 * ms / ITERS, bad ? "false" : "true");
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(in));
    CHECK(cudaFree(acc));
    free(h);
    free(got);
  }
  return failed;
}
