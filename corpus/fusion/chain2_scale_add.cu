// Fusion chain of two elementwise kernels on the default stream:
// scale (t = alpha * x), then add (out = t + y), both with grid = (n + 255) / 256
// and an `if (i < n)` guard. The intermediate t is copied back and checked too,
// so a fused kernel must still store it.
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

__global__ void scale(const float* x, float* t, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    t[i] = alpha * x[i];
  }
}

__global__ void add(const float* t, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = t[i] + y[i];
  }
}

// The pointers are __restrict__: the caller promises they do not overlap, which is what
// lets the launches be fused.
static void run_chain(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ t,
                      float* __restrict__ out, float alpha, int n) {
  const int grid = (n + 255) / 256;
  scale<<<grid, 256>>>(x, t, alpha, n);
  add<<<grid, 256>>>(t, y, out, n);
  CHECK(cudaGetLastError());
}

static bool close_to(float got, float want) {
  return std::fabs(got - want) <= 1e-5f * (1.0f + std::fabs(want));
}

int main() {
  const int n = (1 << 20) + 77;  // not a multiple of 256: the last block is partial
  const float alpha = 1.25f;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_x(n), h_y(n), h_t(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 37) % 1000) * 0.002f - 1.0f;
    h_y[i] = static_cast<float>((i * 11) % 613) * 0.01f - 3.0f;
  }

  float *d_x, *d_y, *d_t, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_t, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h_y.data(), bytes, cudaMemcpyHostToDevice));

  run_chain(d_x, d_y, d_t, d_out, alpha, n);

  CHECK(cudaMemcpy(h_t.data(), d_t, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float t = alpha * h_x[i];
    const float want = t + h_y[i];
    if (!close_to(h_t[i], t) || !close_to(h_out[i], want)) {
      if (bad < 5) fprintf(stderr, "i=%d: t=%.9g (want %.9g), out=%.9g (want %.9g)\n", i, h_t[i], t, h_out[i], want);
      ++bad;
    }
  }

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_t));
  CHECK(cudaFree(d_out));
  if (bad) {
    printf("FAIL chain2_scale_add: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS chain2_scale_add\n");
  return 0;
}
