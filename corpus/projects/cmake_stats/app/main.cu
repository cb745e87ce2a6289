// The program of corpus/projects/cmake_stats: the library's kernels and the header-only
// one, each result checked against the same arithmetic on the CPU.
#include <cmath>
#include <cstdio>
#include <vector>
#include "stats/stats.h"
#include "stats/transform.cuh"

int main() {
  const int n = 10000 + 37;         // not a multiple of the block size: the guards matter
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 101) / 100.0f;
    y[i] = static_cast<float>(i % 7) - 3.0f;
  }
  stats::DeviceBuffer dx(n), dy(n), dsum(1);
  dx.upload(x.data());
  dy.upload(y.data());

  stats::scale_add(2.0f, dx.data(), dy.data(), n);
  dy.download(out.data());
  for (int i = 0; i < n; ++i) {
    float want = 2.0f * x[i] + y[i];
    if (std::fabs(out[i] - want) > 1e-5f * (1.0f + std::fabs(want))) {
      std::printf("FAIL cmake_stats: scale_add: y[%d] = %.9g, want %.9g\n", i, out[i], want);
      return 1;
    }
  }

  stats::transform<<<(n + 127) / 128, 128>>>(dx.data(), dy.data(), n, stats::Square());
  stats::check(cudaGetLastError(), "transform");
  dy.download(out.data());
  double want_sum = 0.0;
  for (int i = 0; i < n; ++i) {
    float want = x[i] * x[i];
    if (std::fabs(out[i] - want) > 1e-5f * (1.0f + want)) {
      std::printf("FAIL cmake_stats: transform: out[%d] = %.9g, want %.9g\n", i, out[i], want);
      return 1;
    }
    want_sum += want;
  }

  stats::sum(dy.data(), dsum.data(), n);
  float got_sum = 0.0f;
  dsum.download(&got_sum);
  if (std::fabs(got_sum - want_sum) > 1e-3 * want_sum) {
    std::printf("FAIL cmake_stats: sum = %.9g, want %.9g\n", got_sum, want_sum);
    return 1;
  }
  std::printf("PASS cmake_stats\n");
  return 0;
}
