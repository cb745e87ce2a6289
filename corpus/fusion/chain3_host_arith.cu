// Fusion chain of three elementwise kernels on one stream, with host arithmetic
// between the launches: the scalar of each later launch is computed on the host
// from the one before (`float a2 = alpha * 2.0f;`), not read from the device.
// affine (t = alpha * x + 1), mix (u = t * a2 - y), clamp (out = clamp(u, -beta, beta)).
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

__global__ void affine(const float* x, float* t, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    t[i] = alpha * x[i] + 1.0f;
  }
}

__global__ void mix(const float* t, const float* y, float* u, float a2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    u[i] = t[i] * a2 - y[i];
  }
}

__global__ void clamp_abs(const float* u, float* out, float beta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = fminf(fmaxf(u[i], -beta), beta);
  }
}

static void run_chain(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ t,
                      float* __restrict__ u, float* __restrict__ out, float alpha, int n, cudaStream_t stream) {
  const int grid = (n + 255) / 256;
  affine<<<grid, 256, 0, stream>>>(x, t, alpha, n);
  float a2 = alpha * 2.0f;
  mix<<<grid, 256, 0, stream>>>(t, y, u, a2, n);
  const float beta = a2 + 0.5f;
  clamp_abs<<<grid, 256, 0, stream>>>(u, out, beta, n);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = (1 << 20) + 3;
  const float alpha = 0.75f;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_x(n), h_y(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 29) % 997) * 0.004f - 2.0f;
    h_y[i] = static_cast<float>((i * 13) % 101) * 0.05f - 2.5f;
  }

  float *d_x, *d_y, *d_t, *d_u, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_t, bytes));
  CHECK(cudaMalloc(&d_u, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMemcpyAsync(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(d_y, h_y.data(), bytes, cudaMemcpyHostToDevice, stream));

  run_chain(d_x, d_y, d_t, d_u, d_out, alpha, n, stream);

  CHECK(cudaMemcpyAsync(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));

  const float a2 = alpha * 2.0f;
  const float beta = a2 + 0.5f;
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float t = alpha * h_x[i] + 1.0f;
    const float u = t * a2 - h_y[i];
    const float want = std::fmin(std::fmax(u, -beta), beta);
    if (!(std::fabs(h_out[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "out[%d] = %.9g, want %.9g\n", i, h_out[i], want);
      ++bad;
    }
  }

  CHECK(cudaStreamDestroy(stream));
  for (float* p : {d_x, d_y, d_t, d_u, d_out}) CHECK(cudaFree(p));
  if (bad) {
    printf("FAIL chain3_host_arith: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS chain3_host_arith\n");
  return 0;
}
