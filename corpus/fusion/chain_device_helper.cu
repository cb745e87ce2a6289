// Fusion chain of three elementwise kernels where two of them call the same
// __device__ helper, relu(): hidden (h = relu(a * x + b)), gate (g = h * w),
// output (out = relu(g - c)). A fused kernel calls the helper twice per element.
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

__device__ float relu(float v) {
  return v > 0.0f ? v : 0.0f;
}

__global__ void hidden(const float* x, float* h, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    h[i] = relu(a * x[i] + b);
  }
}

__global__ void gate(const float* h, const float* w, float* g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    g[i] = h[i] * w[i];
  }
}

__global__ void output(const float* g, const float* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = relu(g[i] - c[i]);
  }
}

static void run_chain(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ c,
                      float* __restrict__ h, float* __restrict__ g, float* __restrict__ out, float a, float b,
                      int n) {
  const int grid = (n + 255) / 256;
  hidden<<<grid, 256>>>(x, h, a, b, n);
  gate<<<grid, 256>>>(h, w, g, n);
  output<<<grid, 256>>>(g, c, out, n);
  CHECK(cudaGetLastError());
}

static float host_relu(float v) { return v > 0.0f ? v : 0.0f; }

int main() {
  const int n = (1 << 20) + 45;
  const float a = 1.5f, b = -0.25f;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_x(n), h_w(n), h_c(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 19) % 301) * 0.01f - 1.5f;
    h_w[i] = static_cast<float>((i * 23) % 97) * 0.04f - 1.0f;
    h_c[i] = static_cast<float>(i % 13) * 0.1f - 0.3f;
  }

  float *d_x, *d_w, *d_c, *d_h, *d_g, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_w, bytes));
  CHECK(cudaMalloc(&d_c, bytes));
  CHECK(cudaMalloc(&d_h, bytes));
  CHECK(cudaMalloc(&d_g, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_w, h_w.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_c, h_c.data(), bytes, cudaMemcpyHostToDevice));

  run_chain(d_x, d_w, d_c, d_h, d_g, d_out, a, b, n);

  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  int bad = 0, positive = 0;
  for (int i = 0; i < n; ++i) {
    const float h = host_relu(a * h_x[i] + b);
    const float g = h * h_w[i];
    const float want = host_relu(g - h_c[i]);
    positive += want > 0.0f;
    if (!(std::fabs(h_out[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "out[%d] = %.9g, want %.9g\n", i, h_out[i], want);
      ++bad;
    }
  }

  for (float* p : {d_x, d_w, d_c, d_h, d_g, d_out}) CHECK(cudaFree(p));
  // Both branches of relu must be taken for the check to mean anything.
  if (bad || positive == 0 || positive == n) {
    printf("FAIL chain_device_helper: %d of %d wrong, %d positive\n", bad, n, positive);
    return 1;
  }
  printf("PASS chain_device_helper\n");
  return 0;
}
