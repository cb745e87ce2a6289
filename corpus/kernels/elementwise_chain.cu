// Three small elementwise kernels launched back to back on one stream:
// scale (t = alpha * x), add (u = t + y), relu (out = max(u, 0)).
// Each is its own launch with grid = (n + 255) / 256 and an i < n guard.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(e_));                                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

__global__ void __launch_bounds__(256) scale(const float* x, float* t, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    t[i] = alpha * x[i];
  }
}

__global__ void __launch_bounds__(256) add(const float* t, const float* y, float* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    u[i] = t[i] + y[i];
  }
}

__global__ void __launch_bounds__(256) relu(const float* u, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = fmaxf(u[i], 0.0f);
  }
}

struct DeviceBuffers {
  float *x, *y, *t, *u, *out;
};

static void run_chain(const DeviceBuffers& b, float alpha, int n, cudaStream_t stream) {
  const int grid = (n + 255) / 256;
  scale<<<grid, 256, 0, stream>>>(b.x, b.t, alpha, n);
  add<<<grid, 256, 0, stream>>>(b.t, b.y, b.u, n);
  relu<<<grid, 256, 0, stream>>>(b.u, b.out, n);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = 300001;  // leaves a partial last block
  const float alpha = 0.75f;
  std::vector<float> h_x(n), h_y(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = std::sin(0.001f * static_cast<float>(i)) * 4.0f;
    h_y[i] = static_cast<float>(i % 101) * 0.02f - 1.0f;
  }

  DeviceBuffers b;
  const size_t bytes = n * sizeof(float);
  CHECK(cudaMalloc(&b.x, bytes));
  CHECK(cudaMalloc(&b.y, bytes));
  CHECK(cudaMalloc(&b.t, bytes));
  CHECK(cudaMalloc(&b.u, bytes));
  CHECK(cudaMalloc(&b.out, bytes));

  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMemcpyAsync(b.x, h_x.data(), bytes, cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(b.y, h_y.data(), bytes, cudaMemcpyHostToDevice, stream));
  run_chain(b, alpha, n, stream);
  CHECK(cudaMemcpyAsync(h_out.data(), b.out, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));

  // Each step is one correctly rounded float operation, so host and device
  // should agree bit for bit; allow 1e-6 relative in case a fused version of
  // the chain keeps the intermediate in a register with an fma.
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float t = alpha * h_x[i];
    const float u = t + h_y[i];
    const float want = u > 0.0f ? u : 0.0f;
    if (!(std::fabs(h_out[i] - want) <= 1e-6f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "out[%d] = %.9g, want %.9g\n", i, h_out[i], want);
      ++bad;
    }
  }

  CHECK(cudaStreamDestroy(stream));
  for (float* p : {b.x, b.y, b.t, b.u, b.out}) CHECK(cudaFree(p));
  if (bad) {
    printf("FAIL: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
