// Fusion chain of four elementwise kernels that mix the two usual guards:
// `if (i >= n) return;` (square, shift) and `if (i < n) { ... }` (diff, ratio).
// square (a = x * x), diff (b = a - y), shift (c = |b| + 0.5), ratio (out = b / c):
// the last kernel reads two intermediates written by two different earlier kernels.
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

__global__ void square(const float* x, float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  a[i] = x[i] * x[i];
}

__global__ void diff(const float* a, const float* y, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    b[i] = a[i] - y[i];
  }
}

__global__ void shift(const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c[i] = fabsf(b[i]) + 0.5f;
}

__global__ void ratio(const float* b, const float* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = b[i] / c[i];
  }
}

// The host function that holds the chain allocates its own buffers: each pointer is a
// local set by one cudaMalloc, so no two of them can overlap.
static void run(const std::vector<float>& h_x, const std::vector<float>& h_y, std::vector<float>& h_b,
                std::vector<float>& h_out) {
  const int n = static_cast<int>(h_x.size());
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *d_x, *d_y, *d_a, *d_b, *d_c, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc(&d_c, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h_y.data(), bytes, cudaMemcpyHostToDevice));

  const int block = 256;
  const int grid = (n + 255) / 256;
  square<<<grid, block>>>(d_x, d_a, n);
  diff<<<grid, block>>>(d_a, d_y, d_b, n);
  shift<<<grid, block>>>(d_b, d_c, n);
  ratio<<<grid, block>>>(d_b, d_c, d_out, n);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpy(h_b.data(), d_b, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_c));
  CHECK(cudaFree(d_out));
}

int main() {
  const int n = (1 << 20) + 129;
  std::vector<float> h_x(n), h_y(n), h_b(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 7) % 501) * 0.006f - 1.5f;
    h_y[i] = static_cast<float>((i * 17) % 89) * 0.03f;
  }

  run(h_x, h_y, h_b, h_out);

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float a = h_x[i] * h_x[i];
    const float b = a - h_y[i];
    const float c = std::fabs(b) + 0.5f;
    const float want = b / c;
    const bool b_ok = std::fabs(h_b[i] - b) <= 1e-5f * (1.0f + std::fabs(b));
    const bool out_ok = std::fabs(h_out[i] - want) <= 1e-5f * (1.0f + std::fabs(want));
    if (!b_ok || !out_ok) {
      if (bad < 5) fprintf(stderr, "i=%d: b=%.9g (want %.9g), out=%.9g (want %.9g)\n", i, h_b[i], b, h_out[i], want);
      ++bad;
    }
  }

  if (bad) {
    printf("FAIL chain4_mixed_guards: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS chain4_mixed_guards\n");
  return 0;
}
