// A register-heavy kernel defined in one translation unit (scale_kernel.cu) and launched
// from three: 128 threads per block there, 256 here, 384 in launch_wide.cu. Build:
// nvcc -o shared_kernel main.cu scale_kernel.cu launch_wide.cu. Each launch's result is
// checked against the same arithmetic on the CPU.
#include <cmath>
#include <vector>
#include "shared.cuh"

static int check(const char *name, const std::vector<float> &got, const std::vector<float> &in, int n,
                 int passes) {
  for (int i = 0; i < n; ++i) {
    float want = shared_work(in.data(), i, passes);
    if (!(std::fabs(got[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      printf("FAIL shared_kernel: %s: out[%d] = %.9g, want %.9g\n", name, i, got[i], want);
      return 1;
    }
  }
  return 0;
}

int main() {
  const int n = 5 * 1024 + 33;      // not a multiple of any block size: the guard matters
  const int passes = 2;
  std::vector<float> in(n + SHARED_LIVE);
  for (size_t k = 0; k < in.size(); ++k) in[k] = static_cast<float>((k * 37) % 101) / 202.0f;
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
  bad += check("128 threads (scale_kernel.cu)", out, in, n, passes);

  CHECK(cudaMemset(d_out, 0xff, n * sizeof(float)));
  shared_heavy<<<(n + 255) / 256, 256>>>(d_in, d_out, n, passes);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("256 threads (main.cu)", out, in, n, passes);

  CHECK(cudaMemset(d_out, 0xff, n * sizeof(float)));
  launch_384(d_in, d_out, n, passes);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("384 threads (launch_wide.cu)", out, in, n, passes);

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (bad) return 1;
  printf("PASS shared_kernel\n");
  return 0;
}
