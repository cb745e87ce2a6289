// A register-heavy kernel of a header (heavy.cuh) launched from two translation units:
// this file with 128 threads per block (a macro), launch_256.cu with 256 (a constexpr).
// Build both into one program: nvcc -o two_tu main.cu launch_256.cu. Each launch's
// result is checked against the same arithmetic on the CPU.
#include <cmath>
#include <vector>
#include "heavy.cuh"

#define SMALL_BLOCK 128

void launch_128(const float *in, float *out, int n, int passes) {
  two_tu_heavy<<<(n + SMALL_BLOCK - 1) / SMALL_BLOCK, SMALL_BLOCK>>>(in, out, n, passes);
  CHECK(cudaGetLastError());
}

static int check(const char *name, const std::vector<float> &got, const std::vector<float> &in, int n,
                 int passes) {
  for (int i = 0; i < n; ++i) {
    float want = two_tu_work(in.data(), i, passes);
    if (!(std::fabs(got[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      printf("FAIL two_tu: %s: out[%d] = %.9g, want %.9g\n", name, i, got[i], want);
      return 1;
    }
  }
  return 0;
}

int main() {
  const int n = 3 * 1024 + 77;      // not a multiple of either block size: the guard matters
  const int passes = 3;
  std::vector<float> in(n + TWO_TU_LIVE);
  for (size_t k = 0; k < in.size(); ++k) in[k] = static_cast<float>((k * 29) % 97) / 194.0f;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));

  std::vector<float> out(n);
  int bad = 0;
  // Each launch writes over NaNs (every byte 0xff), so an element it missed cannot pass.
  CHECK(cudaMemset(d_out, 0xff, n * sizeof(float)));
  launch_128(d_in, d_out, n, passes);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("128 threads (main.cu)", out, in, n, passes);

  CHECK(cudaMemset(d_out, 0xff, n * sizeof(float)));
  launch_256(d_in, d_out, n, passes);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("256 threads (launch_256.cu)", out, in, n, passes);

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (bad) return 1;
  printf("PASS two_tu\n");
  return 0;
}
