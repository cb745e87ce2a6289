// Atomic operations: a shared-memory privatized byte histogram (atomicAdd),
// a float maximum built on atomicCAS, a wrapping ticket counter (atomicInc)
// and stream compaction through an atomicAdd cursor.
#include <algorithm>
#include <cfloat>
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

constexpr int kBins = 256;
constexpr unsigned int kWrap = 99;  // atomicInc counts 0..kWrap then wraps

__device__ float atomic_max_float(float* addr, float value) {
  int* addr_as_int = reinterpret_cast<int*>(addr);
  int old = *addr_as_int;
  int assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(addr_as_int, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void __launch_bounds__(256, 4)
histogram(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    if (local[b]) atomicAdd(&bins[b], local[b]);
}

__global__ void misc_atomics(const float* values, const unsigned char* data, int n,
                             float* max_out, unsigned int* ticket, int* selected,
                             int* selected_count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomic_max_float(max_out, values[i]);
  atomicInc(ticket, kWrap);
  if (data[i] > 200) {
    int slot = atomicAdd(selected_count, 1);
    selected[slot] = i;
  }
}

int main() {
  const int n = 1 << 20;
  std::vector<unsigned char> h_data(n);
  std::vector<float> h_values(n);
  unsigned int s = 2024u;
  for (int i = 0; i < n; ++i) {
    s = s * 1103515245u + 12345u;
    h_data[i] = static_cast<unsigned char>(s >> 16);
    h_values[i] = static_cast<float>(static_cast<int>(s >> 9) - (1 << 22)) * 1e-3f;
  }

  unsigned char* d_data;
  float *d_values, *d_max;
  unsigned int *d_bins, *d_ticket;
  int *d_selected, *d_count;
  CHECK(cudaMalloc(&d_data, n));
  CHECK(cudaMalloc(&d_values, n * sizeof(float)));
  CHECK(cudaMalloc(&d_max, sizeof(float)));
  CHECK(cudaMalloc(&d_bins, kBins * sizeof(unsigned int)));
  CHECK(cudaMalloc(&d_ticket, sizeof(unsigned int)));
  CHECK(cudaMalloc(&d_selected, n * sizeof(int)));
  CHECK(cudaMalloc(&d_count, sizeof(int)));
  CHECK(cudaMemcpy(d_data, h_data.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_values, h_values.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const float lowest = -FLT_MAX;
  CHECK(cudaMemcpy(d_max, &lowest, sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_bins, 0, kBins * sizeof(unsigned int)));
  CHECK(cudaMemset(d_ticket, 0, sizeof(unsigned int)));
  CHECK(cudaMemset(d_count, 0, sizeof(int)));

  histogram<<<120, 256>>>(d_data, n, d_bins);
  CHECK(cudaGetLastError());
  misc_atomics<<<(n + 255) / 256, 256>>>(d_values, d_data, n, d_max, d_ticket,
                                         d_selected, d_count);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  std::vector<unsigned int> bins(kBins), want_bins(kBins, 0);
  float got_max;
  unsigned int ticket;
  int count;
  CHECK(cudaMemcpy(bins.data(), d_bins, kBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&got_max, d_max, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&ticket, d_ticket, sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> selected(count > 0 ? count : 0);
  if (count > 0)
    CHECK(cudaMemcpy(selected.data(), d_selected, count * sizeof(int), cudaMemcpyDeviceToHost));

  std::vector<int> want_selected;
  float want_max = -FLT_MAX;
  for (int i = 0; i < n; ++i) {
    ++want_bins[h_data[i]];
    want_max = std::max(want_max, h_values[i]);
    if (h_data[i] > 200) want_selected.push_back(i);
  }
  std::sort(selected.begin(), selected.end());  // slots are claimed in any order

  int bad = 0;
  for (int b = 0; b < kBins; ++b)
    if (bins[b] != want_bins[b]) {
      if (bad < 5) fprintf(stderr, "bin %d: %u, want %u\n", b, bins[b], want_bins[b]);
      ++bad;
    }
  if (got_max != want_max) { fprintf(stderr, "max %g, want %g\n", got_max, want_max); ++bad; }
  if (ticket != n % (kWrap + 1)) { fprintf(stderr, "ticket %u, want %u\n", ticket, n % (kWrap + 1)); ++bad; }
  if (selected != want_selected) { fprintf(stderr, "compaction: %d selected, want %zu\n", count, want_selected.size()); ++bad; }

  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_bins));
  CHECK(cudaFree(d_ticket));
  CHECK(cudaFree(d_selected));
  CHECK(cudaFree(d_count));
  if (bad) {
    printf("FAIL: %d errors\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
