// must not fuse: the first kernel atomicAdds into an accumulator that the second kernel reads
// accumulate (sum += x[i], one atomicAdd per element) then center (out = x - sum / n):
// every thread of the second kernel needs the total of all threads of the first, which
// exists only once the whole first grid has finished.
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

__global__ void accumulate(const float* x, float* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(sum, x[i]);
  }
}

__global__ void center(const float* x, const float* sum, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = x[i] - sum[0] / static_cast<float>(n);
  }
}

static void run_chain(const float* __restrict__ x, float* __restrict__ sum, float* __restrict__ out, int n) {
  const int grid = (n + 255) / 256;
  accumulate<<<grid, 256>>>(x, sum, n);
  center<<<grid, 256>>>(x, sum, out, n);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = (1 << 20) + 61;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_x(n), h_out(n);
  // Multiples of 0.25 in [0, 4]: every partial sum, in whatever order the atomics land,
  // is a multiple of 0.25 below 2^22 and so exact in float; the total does not depend
  // on the order.
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 7) % 17) * 0.25f;
    total += h_x[i];
  }

  float *d_x, *d_sum, *d_out;
  CHECK(cudaMalloc(&d_x, bytes));
  CHECK(cudaMalloc(&d_sum, sizeof(float)));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_x, h_x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_sum, 0, sizeof(float)));

  run_chain(d_x, d_sum, d_out, n);

  float got_sum = 0.0f;
  CHECK(cudaMemcpy(&got_sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  const float mean = static_cast<float>(total) / static_cast<float>(n);
  int bad = got_sum == static_cast<float>(total) ? 0 : 1;
  if (bad) fprintf(stderr, "sum = %.9g, want %.9g\n", got_sum, total);
  for (int i = 0; i < n; ++i) {
    const float want = h_x[i] - mean;
    if (!(std::fabs(h_out[i] - want) <= 1e-6f * (1.0f + std::fabs(want)))) {
      if (bad < 5) fprintf(stderr, "out[%d] = %.9g, want %.9g\n", i, h_out[i], want);
      ++bad;
    }
  }

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_out));
  if (bad) {
    printf("FAIL neg_atomic_accumulator: %d wrong\n", bad);
    return 1;
  }
  printf("PASS neg_atomic_accumulator\n");
  return 0;
}
