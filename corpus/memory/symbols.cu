// __constant__ and __device__ symbols: cudaMemcpyToSymbol (with and without
// an offset), cudaMemcpyFromSymbol, cudaGetSymbolAddress, cudaGetSymbolSize.
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

constexpr int kDegree = 6;
constexpr int kPoints = 256;

__constant__ float c_coeffs[kDegree + 1];  // c0 + c1 x + ... + c6 x^6
__device__ int d_scale;
__device__ float d_values[kPoints];
__device__ int d_scaled[kPoints];

__global__ void evaluate(float x0, float dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kPoints) return;
  float x = x0 + dx * i;
  float acc = c_coeffs[kDegree];
  for (int k = kDegree - 1; k >= 0; --k) acc = acc * x + c_coeffs[k];
  d_values[i] = acc;
  d_scaled[i] = i * d_scale;
}

static float horner(const float* c, float x) {
  double acc = c[kDegree];
  for (int k = kDegree - 1; k >= 0; --k) acc = acc * x + c[k];
  return static_cast<float>(acc);
}

int main() {
  float coeffs[kDegree + 1] = {1.0f, -0.5f, 0.25f, 2.0f, -1.0f, 0.125f, 0.75f};
  CHECK(cudaMemcpyToSymbol(c_coeffs, coeffs, sizeof(coeffs)));
  // Patch c3 alone through the offset argument.
  coeffs[3] = -3.0f;
  CHECK(cudaMemcpyToSymbol(c_coeffs, &coeffs[3], sizeof(float),
                           3 * sizeof(float), cudaMemcpyHostToDevice));
  const int scale = 17;
  CHECK(cudaMemcpyToSymbol(d_scale, &scale, sizeof(int)));

  const float x0 = -1.0f, dx = 2.0f / (kPoints - 1);
  evaluate<<<(kPoints + 63) / 64, 64>>>(x0, dx);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int bad = 0;
  float back_coeffs[kDegree + 1];
  CHECK(cudaMemcpyFromSymbol(back_coeffs, c_coeffs, sizeof(back_coeffs)));
  for (int k = 0; k <= kDegree; ++k)
    if (back_coeffs[k] != coeffs[k]) {
      fprintf(stderr, "c_coeffs[%d] = %g, want %g\n", k, back_coeffs[k], coeffs[k]);
      ++bad;
    }

  float values[kPoints];
  CHECK(cudaMemcpyFromSymbol(values, d_values, sizeof(values), 0,
                             cudaMemcpyDeviceToHost));
  for (int i = 0; i < kPoints; ++i) {
    float want = horner(coeffs, x0 + dx * i);
    if (!(std::fabs(values[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "p(x_%d) = %g, want %g\n", i, values[i], want);
      ++bad;
    }
  }

  // The same storage, reached through a plain device pointer.
  void* scaled_addr = nullptr;
  size_t scaled_size = 0;
  CHECK(cudaGetSymbolAddress(&scaled_addr, d_scaled));
  CHECK(cudaGetSymbolSize(&scaled_size, d_scaled));
  if (scaled_size != kPoints * sizeof(int)) {
    fprintf(stderr, "symbol size %zu, want %zu\n", scaled_size, kPoints * sizeof(int));
    ++bad;
  }
  int scaled[kPoints];
  CHECK(cudaMemcpy(scaled, scaled_addr, sizeof(scaled), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kPoints; ++i)
    if (scaled[i] != i * scale) {
      if (bad < 5) fprintf(stderr, "scaled[%d] = %d, want %d\n", i, scaled[i], i * scale);
      ++bad;
    }

  if (bad) {
    printf("FAIL: %d errors\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
