// must not fuse: the two launches are on different streams (s1 and s2), ordered only within their own stream
// scale (a = 2x on s1) and offset (b = x + y on s2) are independent and may run at the
// same time; a fused kernel would have to pick one stream and serialise the other's work
// behind everything queued there.
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

__global__ void scale(const float* x, float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = 2.0f * x[i];
  }
}

__global__ void offset(const float* x, const float* y, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    b[i] = x[i] + y[i];
  }
}

static void run_both(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ a,
                     float* __restrict__ b, int n, cudaStream_t s1, cudaStream_t s2) {
  const int grid = (n + 255) / 256;
  scale<<<grid, 256, 0, s1>>>(x, a, n);
  offset<<<grid, 256, 0, s2>>>(x, y, b, n);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = (1 << 20) + 17;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_x(n), h_y(n), h_a(n), h_b(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 7) % 1013) * 0.003f - 1.5f;
    h_y[i] = static_cast<float>((i * 29) % 97) * 0.02f;
  }

  float *d_x, *d_y, *d_a, *d_b;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h_y.data(), bytes, cudaMemcpyHostToDevice));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  run_both(d_x, d_y, d_a, d_b, n, s1, s2);

  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaMemcpy(h_a.data(), d_a, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_b.data(), d_b, bytes, cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float a = 2.0f * h_x[i];
    const float b = h_x[i] + h_y[i];
    if (h_a[i] != a || !(std::fabs(h_b[i] - b) <= 1e-6f * (1.0f + std::fabs(b)))) {
      if (bad < 5) fprintf(stderr, "i=%d: a=%.9g (want %.9g), b=%.9g (want %.9g)\n", i, h_a[i], a, h_b[i], b);
      ++bad;
    }
  }

  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  for (float* p : {d_x, d_y, d_a, d_b}) CHECK(cudaFree(p));
  if (bad) {
    printf("FAIL neg_two_streams: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS neg_two_streams\n");
  return 0;
}
