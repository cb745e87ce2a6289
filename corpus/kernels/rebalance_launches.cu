// Launch configurations written for NVIDIA, as programs write them: 1024-thread blocks,
// 32-thread blocks, grids computed in a local, `(n - 1) / B + 1`, a dim3 block whose .x
// sizes the grid, a grid-stride kernel on a fixed grid of 32 blocks, a fixed grid that
// covers a constant count, and kernels that must keep their blocks (shared memory sized
// by the block, a barrier). cu2hip moves the block-size agnostic launches to 256 threads;
// every result is checked against the same arithmetic on the CPU, with an element count
// that is not a multiple of any block size.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

#define WIDE 1024
#define FIXED_COUNT (1 << 16)
constexpr int kNarrow = 32;

__global__ void axpb(float *x, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i] + b;
}

__global__ void neighbour_mean(const float *in, float *out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  float left = i > 0 ? in[i - 1] : in[i];
  float right = i + 1 < n ? in[i + 1] : in[i];
  out[i] = (left + in[i] + right) / 3.0f;
}

__global__ void histogram16(const int *keys, int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[keys[i] & 15], 1);
}

__global__ void square_all(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] = x[i] * x[i];
}

// Keeps its block: each block sums its own slice through shared memory sized by the launch.
__global__ void block_sums(const float *x, float *sums, int n) {
  extern __shared__ float part[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
}

static int failures = 0;

static void expect(bool ok, const char *what) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

static bool close_all(const std::vector<float> &got, const std::vector<float> &want) {
  for (size_t i = 0; i < got.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-4f * std::fmax(1.0f, std::fabs(want[i]))) {
      fprintf(stderr, "  element %zu: %f, expected %f\n", i, got[i], want[i]);
      return false;
    }
  return true;
}

int main() {
  const int n = 100003;
  std::vector<float> h(n), want(n), got(n);
  std::vector<int> keys(n);
  for (int i = 0; i < n; ++i) {
    h[i] = 0.001f * (i % 977) - 0.3f;
    keys[i] = (i * 7919) % 1000;
  }
  float *x, *y, *sums;
  int *k, *bins;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&k, n * sizeof(int)));
  CHECK(cudaMalloc(&bins, 16 * sizeof(int)));
  CHECK(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(k, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(bins, 0, 16 * sizeof(int)));

  // 1024-thread blocks, a ceiling division by a macro.
  axpb<<<(n + WIDE - 1) / WIDE, WIDE>>>(x, 2.0f, 1.0f, n);
  // 32-thread blocks, the grid computed in a local first.
  int narrow_blocks = (n + kNarrow - 1) / kNarrow;
  axpb<<<narrow_blocks, kNarrow>>>(x, 0.5f, -0.25f, n);
  // (n - 1) / B + 1, and a dim3 block whose .x sizes the grid.
  neighbour_mean<<<(n - 1) / 128 + 1, 128>>>(x, y, n);
  dim3 block(512);
  dim3 grid((n + block.x - 1) / block.x);
  histogram16<<<grid, block>>>(k, bins, n);
  // A grid-stride kernel on a fixed grid of 32 blocks.
  square_all<<<32, 128>>>(y, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<float> a(n);
  for (int i = 0; i < n; ++i) a[i] = 0.5f * (2.0f * h[i] + 1.0f) - 0.25f;
  for (int i = 0; i < n; ++i) {
    float left = i > 0 ? a[i - 1] : a[i], right = i + 1 < n ? a[i + 1] : a[i];
    float m = (left + a[i] + right) / 3.0f;
    want[i] = m * m;
  }
  expect(close_all(got, want), "elementwise launches moved to other block sizes");
  std::vector<int> hist(16), want_hist(16, 0);
  CHECK(cudaMemcpy(hist.data(), bins, 16 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) want_hist[keys[i] & 15]++;
  expect(hist == want_hist, "histogram with a dim3 block");

  // A fixed grid that covers a constant count exactly.
  CHECK(cudaMemcpy(x, h.data(), FIXED_COUNT * sizeof(float), cudaMemcpyHostToDevice));
  axpb<<<FIXED_COUNT / 128, 128>>>(x, 3.0f, 0.0f, FIXED_COUNT);
  CHECK(cudaMemcpy(got.data(), x, FIXED_COUNT * sizeof(float), cudaMemcpyDeviceToHost));
  bool fixed_ok = true;
  for (int i = 0; i < FIXED_COUNT; ++i) fixed_ok &= std::fabs(got[i] - 3.0f * h[i]) <= 1e-5f;
  expect(fixed_ok, "fixed grid over a constant count");

  // Shared memory sized by the launch: this launch keeps its 128 threads.
  const int threads = 128, blocks = (n + threads - 1) / threads;
  CHECK(cudaMalloc(&sums, blocks * sizeof(float)));
  CHECK(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  block_sums<<<blocks, threads, threads * sizeof(float)>>>(x, sums, n);
  std::vector<float> bs(blocks);
  CHECK(cudaMemcpy(bs.data(), sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<float> want_bs(blocks, 0.0f);
  for (int i = 0; i < n; ++i) want_bs[i / threads] += h[i];
  expect(close_all(bs, want_bs), "block sums keep their block size");

  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(k));
  CHECK(cudaFree(bins));
  CHECK(cudaFree(sums));
  if (failures) {
    printf("FAILED: %d check(s)\n", failures);
    return 1;
  }
  printf("ALL PASSED\n");
  return 0;
}
