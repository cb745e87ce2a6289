// "Map then reduce" fusion chain: an elementwise kernel computes the residual
// r = b - a * x, then a block-reduction kernel over r at the same index sums the
// squares (a shared-memory tree in each block of 256, and one atomicAdd of the
// block's partial sum into a single float). Both launches have the same grid and block.
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

__global__ void residual(const float* a, const float* x, const float* b, float* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    r[i] = b[i] - a[i] * x[i];
  }
}

// Needs blockDim.x == 256 (the size of the shared array, a power of two).
__global__ void sum_squares(const float* r, float* total, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) {
    v = r[i] * r[i];
  }
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      partial[threadIdx.x] += partial[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(total, partial[0]);
  }
}

static void residual_norm2(const float* __restrict__ a, const float* __restrict__ x, const float* __restrict__ b,
                           float* __restrict__ r, float* __restrict__ total, int n) {
  const int grid = (n + 255) / 256;
  residual<<<grid, 256>>>(a, x, b, r, n);
  sum_squares<<<grid, 256>>>(r, total, n);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = (1 << 20) + 99;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_a(n), h_x(n), h_b(n), h_r(n);
  for (int i = 0; i < n; ++i) {
    h_a[i] = 1.0f + static_cast<float>(i % 7) * 0.25f;
    h_x[i] = static_cast<float>((i * 13) % 257) * 0.004f - 0.5f;
    h_b[i] = static_cast<float>((i * 41) % 199) * 0.01f - 1.0f;
  }

  float *d_a, *d_x, *d_b, *d_r, *d_total;
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc(&d_r, bytes));
  CHECK(cudaMalloc(&d_total, sizeof(float)));
  CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_total, 0, sizeof(float)));

  residual_norm2(d_a, d_x, d_b, d_r, d_total, n);

  float total = 0.0f;
  CHECK(cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_r.data(), d_r, bytes, cudaMemcpyDeviceToHost));

  int bad = 0;
  double want = 0.0;
  for (int i = 0; i < n; ++i) {
    const float r = h_b[i] - h_a[i] * h_x[i];
    want += static_cast<double>(r) * r;
    if (!(std::fabs(h_r[i] - r) <= 1e-5f * (1.0f + std::fabs(r)))) {
      if (bad < 5) fprintf(stderr, "r[%d] = %.9g, want %.9g\n", i, h_r[i], r);
      ++bad;
    }
  }
  // A float sum of about 4100 block partials in any order: a relative error of
  // 1e-4 is generous for rounding and far below one missing block (about 2.4e-4).
  const double rel = std::fabs(static_cast<double>(total) - want) / want;

  for (float* p : {d_a, d_x, d_b, d_r, d_total}) CHECK(cudaFree(p));
  if (bad || !(rel <= 1e-4)) {
    printf("FAIL chain_map_reduce: %d of %d residuals wrong, sum of squares %.9g, want %.9g (rel %.3g)\n",
           bad, n, total, want, rel);
    return 1;
  }
  printf("PASS chain_map_reduce\n");
  return 0;
}
