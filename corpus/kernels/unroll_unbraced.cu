// A register-heavy kernel written with `#pragma unroll` between loop headers and bodies
// without braces (`for (...)` / `#pragma unroll` / `for (...) stmt;`), as much real CUDA
// is. Its 192 live floats fit in gfx90a's registers only with a bound: launched with 256
// threads per block, the translation gets __launch_bounds__(256) (256 VGPRs) and does not
// spill; without it HIP compiles for 1024 threads (128 VGPRs) and spills. The result is
// checked against the same arithmetic on the CPU.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

#define LIVE 192
#define THREADS 256

// The CPU's reference: the kernel's arithmetic, one element at a time.
static float cpu_work(const float *in, int i, int passes) {
  float v[LIVE];
  for (int k = 0; k < LIVE; ++k) { v[k] = in[i + k]; }
  for (int p = 0; p < passes; ++p) {
    for (int k = 0; k < LIVE; ++k) { v[k] = fmaf(v[k], v[(k + 5) % LIVE], 0.0625f); }
  }
  float sum = 0.0f;
  if (passes > 0) {
    for (int k = 0; k < LIVE; ++k) { sum += v[k] * (1.0f + (k & 3) * 0.25f); }
  } else {
    for (int k = 0; k < LIVE; ++k) { sum += v[k]; }
  }
  return sum;
}

__global__ void unbraced_heavy(const float *in, float *out, int n, int passes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v[LIVE];
#pragma unroll
  for (int k = 0; k < LIVE; ++k) v[k] = in[i + k];
  for (int p = 0; p < passes; ++p)
#pragma unroll
    for (int k = 0; k < LIVE; ++k) v[k] = fmaf(v[k], v[(k + 5) % LIVE], 0.0625f);
  float sum = 0.0f;
  if (passes > 0)
#pragma unroll
    for (int k = 0; k < LIVE; ++k) sum += v[k] * (1.0f + (k & 3) * 0.25f);
  else
#pragma unroll
    for (int k = 0; k < LIVE; ++k) sum += v[k];
  out[i] = sum;
}

int main() {
  const int n = 4 * 1024 + 19;
  const int passes = 3;
  std::vector<float> in(n + LIVE);
  for (size_t k = 0; k < in.size(); ++k) in[k] = static_cast<float>((k * 13) % 89) / 178.0f;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0xff, n * sizeof(float)));
  unbraced_heavy<<<(n + THREADS - 1) / THREADS, THREADS>>>(d_in, d_out, n, passes);
  CHECK(cudaGetLastError());
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float want = cpu_work(in.data(), i, passes);
    if (!(std::fabs(out[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      printf("FAIL unroll_unbraced: out[%d] = %.9g, want %.9g\n", i, out[i], want);
      return 1;
    }
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  printf("PASS unroll_unbraced\n");
  return 0;
}
