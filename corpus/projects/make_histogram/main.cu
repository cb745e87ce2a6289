// The program of corpus/projects/make_histogram: a histogram on the device (the
// library), its normalization (the header-only kernel), both checked on the CPU.
#include <cmath>
#include <cstdio>
#include <vector>
#include "histogram.h"
#include "normalize.cuh"

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t status_ = (call);                                                        \
    if (status_ != cudaSuccess) {                                                        \
      std::printf("FAIL make_histogram: %s: %s\n", #call, cudaGetErrorString(status_)); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

int main() {
  const int n = 100000 + 3;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>((i * 37) % 1000) / 1000.0f;
  std::vector<int> want(kBins, 0);
  for (int i = 0; i < n; ++i) {
    int b = static_cast<int>(x[i] * kBins);
    want[b < 0 ? 0 : (b >= kBins ? kBins - 1 : b)]++;
  }

  float *d_x, *d_fractions;
  int *d_counts;
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_counts, kBins * sizeof(int)));
  CHECK(cudaMalloc(&d_fractions, kBins * sizeof(float)));
  CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  histogram(d_x, n, d_counts);
  normalize<<<1, 64>>>(d_counts, d_fractions, kBins, n);
  CHECK(cudaGetLastError());

  std::vector<int> counts(kBins);
  std::vector<float> fractions(kBins);
  CHECK(cudaMemcpy(counts.data(), d_counts, kBins * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(fractions.data(), d_fractions, kBins * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 0; b < kBins; ++b) {
    if (counts[b] != want[b]) {
      std::printf("FAIL make_histogram: counts[%d] = %d, want %d\n", b, counts[b], want[b]);
      return 1;
    }
    float f = static_cast<float>(want[b]) / static_cast<float>(n);
    if (std::fabs(fractions[b] - f) > 1e-6f) {
      std::printf("FAIL make_histogram: fractions[%d] = %.9g, want %.9g\n", b, fractions[b], f);
      return 1;
    }
  }
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_counts));
  CHECK(cudaFree(d_fractions));
  std::printf("PASS make_histogram\n");
  return 0;
}
