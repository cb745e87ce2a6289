// must not fuse: cudaMemcpy between the launches reads the intermediate on the host
// energy (t = x * x + y * y) is copied back, the host finds its maximum, and normalize
// (out = t / tmax) takes that maximum as an argument: the second launch depends on a
// value only known after the first kernel has finished and its output was copied.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(err_));                                     \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

__global__ void energy(const float* x, const float* y, float* t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    t[i] = x[i] * x[i] + y[i] * y[i];
  }
}

__global__ void normalize(const float* t, float* out, float inv_max, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = t[i] * inv_max;
  }
}

static void run(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ t,
                float* __restrict__ out, std::vector<float>& h_t, int n) {
  const int grid = (n + 255) / 256;
  energy<<<grid, 256>>>(x, y, t, n);
  CHECK(cudaMemcpy(h_t.data(), t, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToHost));
  float tmax = 0.0f;
  for (int i = 0; i < n; ++i) tmax = std::fmax(tmax, h_t[i]);
  normalize<<<grid, 256>>>(t, out, 1.0f / tmax, n);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = (1 << 20) + 5;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_x(n), h_y(n), h_t(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 37) % 503) * 0.01f - 2.5f;
    h_y[i] = static_cast<float>((i * 11) % 307) * 0.01f - 1.5f;
  }

  float *d_x, *d_y, *d_t, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_t, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h_y.data(), bytes, cudaMemcpyHostToDevice));

  run(d_x, d_y, d_t, d_out, h_t, n);

  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  std::vector<float> want_t(n);
  float tmax = 0.0f;
  for (int i = 0; i < n; ++i) {
    want_t[i] = h_x[i] * h_x[i] + h_y[i] * h_y[i];
    tmax = std::fmax(tmax, want_t[i]);
  }
  const float inv_max = 1.0f / tmax;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float want = want_t[i] * inv_max;
    if (!(std::fabs(h_out[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "out[%d] = %.9g, want %.9g\n", i, h_out[i], want);
      ++bad;
    }
  }

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_t));
  CHECK(cudaFree(d_out));
  if (bad) {
    printf("FAIL neg_copy_between: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS neg_copy_between\n");
  return 0;
}
