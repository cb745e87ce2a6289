// must not fuse: the second kernel reads t[i-1] and t[i+1], which other threads of the first kernel write
// scale (t = 2x + 1) then smooth (out = (t[i-1] + t[i] + t[i+1]) / 3, the ends clamped):
// in one fused kernel thread i would read its neighbours' t before they are written
// (they may belong to another block, and no barrier orders blocks).
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

__global__ void scale(const float* x, float* t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    t[i] = 2.0f * x[i] + 1.0f;
  }
}

__global__ void smooth(const float* t, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float left = i > 0 ? t[i - 1] : t[i];
    const float right = i + 1 < n ? t[i + 1] : t[i];
    out[i] = (left + t[i] + right) * (1.0f / 3.0f);
  }
}

static void run_chain(const float* __restrict__ x, float* __restrict__ t, float* __restrict__ out, int n) {
  const int grid = (n + 255) / 256;
  scale<<<grid, 256>>>(x, t, n);
  smooth<<<grid, 256>>>(t, out, n);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = (1 << 20) + 31;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_x(n), h_out(n), t(n);
  for (int i = 0; i < n; ++i) {
    // Neighbours differ, so a stale or unwritten neighbour shows in the result.
    h_x[i] = static_cast<float>((i * 53) % 401) * 0.01f - 2.0f;
  }

  float *d_x, *d_t, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_t, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  // Poison t, so that reading a neighbour before it is written cannot pass by luck.
  CHECK(cudaMemset(d_t, 0xff, bytes));

  run_chain(d_x, d_t, d_out, n);

  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; ++i) t[i] = 2.0f * h_x[i] + 1.0f;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float left = i > 0 ? t[i - 1] : t[i];
    const float right = i + 1 < n ? t[i + 1] : t[i];
    const float want = (left + t[i] + right) * (1.0f / 3.0f);
    if (!(std::fabs(h_out[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "out[%d] = %.9g, want %.9g\n", i, h_out[i], want);
      ++bad;
    }
  }

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_t));
  CHECK(cudaFree(d_out));
  if (bad) {
    printf("FAIL neg_neighbour_read: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS neg_neighbour_read\n");
  return 0;
}
