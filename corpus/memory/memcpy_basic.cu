// Device memory basics: cudaMalloc, cudaMemset, cudaMemcpy in all directions.
// The kernel applies an affine map to a buffer whose second half was zeroed
// with cudaMemset and whose first half came over with a device-to-device copy.
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

__global__ void affine(const int* in, int* out, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * mul + add;
}

static int count_mismatches(const std::vector<int>& got,
                            const std::vector<int>& want, const char* what) {
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      if (bad < 5)
        fprintf(stderr, "%s: index %zu: got %d, want %d\n", what, i, got[i],
                want[i]);
      ++bad;
    }
  }
  return bad;
}

int main() {
  const int n = 10000;
  const size_t bytes = n * sizeof(int);
  std::vector<int> h_in(n), h_out(n), want(n);
  for (int i = 0; i < n; ++i) h_in[i] = (i * 37) % 1001 - 500;

  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (total_b == 0 || free_b > total_b) {
    fprintf(stderr, "cudaMemGetInfo: free %zu, total %zu\n", free_b, total_b);
    return 1;
  }

  int* d_in = nullptr;
  int* d_out = nullptr;
  int* d_copy = nullptr;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc((void**)&d_out, bytes));
  CHECK(cudaMalloc(reinterpret_cast<void**>(&d_copy), bytes));

  int bad = 0;

  // Every byte 0xFF makes every int -1.
  CHECK(cudaMemset(d_out, 0xFF, bytes));
  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) want[i] = -1;
  bad += count_mismatches(h_out, want, "memset 0xFF");

  // Round trip host -> device -> host.
  CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));
  std::vector<int> back(n, 0);
  CHECK(cudaMemcpy(back.data(), d_in, bytes, cudaMemcpyDeviceToHost));
  bad += count_mismatches(back, h_in, "round trip");

  // Zero everything, then copy the first half device to device.
  CHECK(cudaMemset(d_copy, 0, bytes));
  CHECK(cudaMemcpy(d_copy, d_in, bytes / 2, cudaMemcpyDeviceToDevice));

  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  affine<<<blocks, threads>>>(d_copy, d_out, n, 3, 7);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) want[i] = (i < n / 2 ? h_in[i] : 0) * 3 + 7;
  bad += count_mismatches(h_out, want, "affine");

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_copy));

  if (bad) {
    printf("FAIL: %d mismatches\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
