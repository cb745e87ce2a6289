// Macros that wrap runtime calls, memory copies and kernel launches (the
// launch syntax lives inside the macro bodies). Kernels come from a local
// header with an include guard; it is included twice on purpose.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "macro_kernels.cuh"
#include "macro_kernels.cuh"  // second include is a no-op thanks to the guard

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(e_));                                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

#define BLOCK 128
#define GRID_FOR(n) (((n) + BLOCK - 1) / BLOCK)

// Launch on the default stream, then check the launch.
#define LAUNCH(kernel, n, ...)                                               \
  do {                                                                       \
    kernel<<<GRID_FOR(n), BLOCK>>>(__VA_ARGS__);                             \
    CHECK(cudaGetLastError());                                               \
  } while (0)

// Launch on a given stream with a fixed grid; no check, as some code does it.
#define LAUNCH_ON(stream, grid, kernel, ...) \
  kernel<<<(grid), BLOCK, 0, (stream)>>>(__VA_ARGS__)

#define DEVICE_ALLOC(ptr, count) \
  CHECK(cudaMalloc((void**)&(ptr), (count) * sizeof(*(ptr))))
#define TO_DEVICE(dst, src, count) \
  CHECK(cudaMemcpy((dst), (src), (count) * sizeof(*(src)), cudaMemcpyHostToDevice))
#define TO_HOST(dst, src, count) \
  CHECK(cudaMemcpy((dst), (src), (count) * sizeof(*(dst)), cudaMemcpyDeviceToHost))

#define EXPECT_EQ(got, want, i)                                              \
  do {                                                                       \
    if ((got) != (want)) {                                                   \
      if (bad < 5)                                                           \
        fprintf(stderr, "%s[%d]: got %g, want %g\n", #got, (i),              \
                (double)(got), (double)(want));                              \
      ++bad;                                                                 \
    }                                                                        \
  } while (0)

int main() {
  const int n = 3000;
  int *d_a, *d_b, *d_c;
  float *d_f, *d_g;
  DEVICE_ALLOC(d_a, n);
  DEVICE_ALLOC(d_b, n);
  DEVICE_ALLOC(d_c, n);
  DEVICE_ALLOC(d_f, n);
  DEVICE_ALLOC(d_g, n);

  float* h_f = (float*)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) h_f[i] = (float)(i - 1500);
  TO_DEVICE(d_f, h_f, n);

  LAUNCH(iota_kernel, n, d_a, n, -100);      // a = i - 100
  LAUNCH(square_kernel, n, d_a, d_b, n);     // b = a * a
  LAUNCH(negate_kernel, n, d_a, d_c, n);     // c = -a
  LAUNCH(halve_kernel, n, d_f, d_g, n);      // g = f / 2

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  LAUNCH_ON(s, 8, axpy_kernel, 3, d_c, d_b, n);  // b += 3 * c
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaStreamDestroy(s));

  int* h_b = (int*)malloc(n * sizeof(int));
  float* h_g = (float*)malloc(n * sizeof(float));
  TO_HOST(h_b, d_b, n);
  TO_HOST(h_g, d_g, n);

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const int a = i - 100;
    EXPECT_EQ(h_b[i], a * a - 3 * a, i);
    EXPECT_EQ(h_g[i], (float)(i - 1500) * 0.5f, i);  // exact: halving
  }

  free(h_f);
  free(h_b);
  free(h_g);
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_c));
  CHECK(cudaFree(d_f));
  CHECK(cudaFree(d_g));
  if (bad) {
    printf("FAIL: %d mismatches\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
