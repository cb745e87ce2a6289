// must not fuse: buf is the output of the first kernel and, at an offset (buf + 1), the input of the second
// produce (buf[i] = 0.5 x + 1) then square (out[i] = in[i]^2 with in = buf + 1): the
// second kernel's in[i] is buf[i + 1], written by another thread (maybe another block)
// of the first kernel, although both kernels index with i.
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

__global__ void produce(const float* x, float* buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    buf[i] = 0.5f * x[i] + 1.0f;
  }
}

__global__ void square(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * in[i];
  }
}

// The buffers are locals set by one cudaMalloc each, so x, buf and out are distinct
// allocations; buf and buf + 1 are the same one.
static void run(const std::vector<float>& h_x, std::vector<float>& h_out) {
  const int n = static_cast<int>(h_x.size());
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *d_x, *d_buf, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_buf, bytes + sizeof(float)));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  // buf[n] = 0; buf[0..n) is written by produce.
  CHECK(cudaMemset(d_buf, 0, bytes + sizeof(float)));

  const int grid = (n + 255) / 256;
  produce<<<grid, 256>>>(d_x, d_buf, n);
  square<<<grid, 256>>>(d_buf + 1, d_out, n);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_buf));
  CHECK(cudaFree(d_out));
}

int main() {
  const int n = (1 << 20) + 11;
  std::vector<float> h_x(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 61) % 337) * 0.02f - 3.0f;
  }

  run(h_x, h_out);

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float next = i + 1 < n ? 0.5f * h_x[i + 1] + 1.0f : 0.0f;
    const float want = next * next;
    if (!(std::fabs(h_out[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "out[%d] = %.9g, want %.9g\n", i, h_out[i], want);
      ++bad;
    }
  }

  if (bad) {
    printf("FAIL neg_aliasing: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS neg_aliasing\n");
  return 0;
}
