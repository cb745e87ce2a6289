// must not fuse: cublasSscal scales the intermediate t between the two launches
// add (t = x + y), then cuBLAS scales t in place (t *= alpha) on the same stream, then
// mul (out = t * w): the second kernel must see t after the library call, which a fused
// kernel (reading t as the first kernel left it) would skip.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(err_));                                     \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

#define CHECK_CUBLAS(call)                                                   \
  do {                                                                       \
    cublasStatus_t st_ = (call);                                             \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                      \
      fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__,       \
              static_cast<int>(st_));                                        \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

__global__ void add(const float* x, const float* y, float* t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    t[i] = x[i] + y[i];
  }
}

__global__ void mul(const float* t, const float* w, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = t[i] * w[i];
  }
}

static void run_chain(cublasHandle_t handle, const float* __restrict__ x, const float* __restrict__ y,
                      const float* __restrict__ w, float* __restrict__ t, float* __restrict__ out, float alpha,
                      int n) {
  const int grid = (n + 255) / 256;
  add<<<grid, 256>>>(x, y, t, n);
  CHECK_CUBLAS(cublasSscal(handle, n, &alpha, t, 1));
  mul<<<grid, 256>>>(t, w, out, n);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = (1 << 20) + 7;
  const float alpha = -1.5f;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_x(n), h_y(n), h_w(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 3) % 251) * 0.01f - 1.0f;
    h_y[i] = static_cast<float>((i * 47) % 89) * 0.02f;
    h_w[i] = 0.5f + static_cast<float>(i % 5) * 0.25f;
  }

  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));  // uses the legacy default stream, like the launches
  float *d_x, *d_y, *d_w, *d_t, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_w, bytes));
  CHECK(cudaMalloc(&d_t, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h_y.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_w, h_w.data(), bytes, cudaMemcpyHostToDevice));

  run_chain(handle, d_x, d_y, d_w, d_t, d_out, alpha, n);

  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float t = (h_x[i] + h_y[i]) * alpha;
    const float want = t * h_w[i];
    if (!(std::fabs(h_out[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "out[%d] = %.9g, want %.9g\n", i, h_out[i], want);
      ++bad;
    }
  }

  CHECK_CUBLAS(cublasDestroy(handle));
  for (float* p : {d_x, d_y, d_w, d_t, d_out}) CHECK(cudaFree(p));
  if (bad) {
    printf("FAIL neg_cublas_between: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS neg_cublas_between\n");
  return 0;
}
