// Fusion chain of three grid-stride kernels with identical loops
// `for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)`
// launched with a fixed grid of 264 blocks (far fewer threads than elements, so every
// thread visits many elements and the same thread owns element i in all three).
// affine (t = 3x - 1), square (u = t * t), combine (out = u + 0.5 y).
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

__global__ void affine(const float* x, float* t, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    t[i] = x[i] * 3.0f - 1.0f;
  }
}

__global__ void square(const float* t, float* u, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    u[i] = t[i] * t[i];
  }
}

__global__ void combine(const float* u, const float* y, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = u[i] + y[i] * 0.5f;
  }
}

// The host function that holds the chain allocates its own buffers (each pointer a
// local set by one cudaMalloc: they cannot overlap).
static void run(const std::vector<float>& h_x, const std::vector<float>& h_y, std::vector<float>& h_out) {
  const int n = static_cast<int>(h_x.size());
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *d_x, *d_y, *d_t, *d_u, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_y, bytes));
  CHECK(cudaMalloc(&d_t, bytes));
  CHECK(cudaMalloc(&d_u, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, h_y.data(), bytes, cudaMemcpyHostToDevice));

  const int grid = 264;
  affine<<<grid, 256>>>(d_x, d_t, n);
  square<<<grid, 256>>>(d_t, d_u, n);
  combine<<<grid, 256>>>(d_u, d_y, d_out, n);
  CHECK(cudaGetLastError());

  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_t));
  CHECK(cudaFree(d_u));
  CHECK(cudaFree(d_out));
}

int main() {
  const int n = (1 << 20) + 1000;
  std::vector<float> h_x(n), h_y(n), h_out(n);
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 43) % 211) * 0.005f - 0.5f;
    h_y[i] = static_cast<float>((i * 3) % 1009) * 0.002f - 1.0f;
  }

  run(h_x, h_y, h_out);

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float t = h_x[i] * 3.0f - 1.0f;
    const float u = t * t;
    const float want = u + h_y[i] * 0.5f;
    if (!(std::fabs(h_out[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "out[%d] = %.9g, want %.9g\n", i, h_out[i], want);
      ++bad;
    }
  }

  if (bad) {
    printf("FAIL chain_grid_stride: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS chain_grid_stride\n");
  return 0;
}
