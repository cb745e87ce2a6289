// Block reductions that mix warpSize and the literal 32 with parts of the idiom under
// the preprocessor, and one kept whole in a header (warp_mixed_variants.cuh):
//  - block_sums: the shuffle loop is chosen by #if (from warpSize, or from 16 when
//    SUM_OFFSETS_FROM_WARPSIZE is 0), the lane index by #if/#else (% 32 or & 31), and
//    the per-warp store sits in an #ifdef block; the warp index and count are on 32;
//  - block_max (the header): the helper from warpSize, the kernel on 32 (& 31, >> 5);
//  - block_sums_split: the kernel here on 32 (% 32, / 32, blockDim.x / 32), calling the
//    header's warp_sum, from warpSize.
// On a 64-lane wavefront every part, in every branch, must use one width, or lane 32 of
// each wavefront writes a second partial result. The results are per block, so they do
// not depend on the warp width.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "warp_mixed_variants.cuh"

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(e_));                                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

#ifndef SUM_OFFSETS_FROM_WARPSIZE
#define SUM_OFFSETS_FROM_WARPSIZE 1
#endif
#define STORE_PARTIALS 1

__global__ void block_sums(const int* in, int n, long long* out) {
  __shared__ long long partial[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
#if SUM_OFFSETS_FROM_WARPSIZE
  const int lane = threadIdx.x % 32;
#else
  const int lane = threadIdx.x & 31;
#endif
  const int warp = threadIdx.x / 32;
  long long v = i < n ? in[i] : 0;
#if SUM_OFFSETS_FROM_WARPSIZE
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
#else
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
#endif
#ifdef STORE_PARTIALS
  if (lane == 0) partial[warp] = v;
#endif
  __syncthreads();
  if (threadIdx.x == 0) {
    long long total = 0;
    for (int w = 0; w < (blockDim.x + 31) / 32; ++w) total += partial[w];
    out[blockIdx.x] = total;
  }
}

// The kernel here, the helper in the header (from warpSize): the kernel's 32s must follow it.
__global__ void block_sums_split(const int* in, int n, long long* out) {
  __shared__ long long partial[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  long long v = warp_sum(i < n ? in[i] : 0);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < blockDim.x / 32; ++w) v += partial[w];
    out[blockIdx.x] = v;
  }
}

int main() {
  const int block = 256;
  const int n = 100003;
  const int blocks = (n + block - 1) / block;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 2003 - 1000;
  int* d_in;
  long long* d_sums;
  int* d_max;
  long long* d_split;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sums, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&d_max, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_split, blocks * sizeof(long long)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  block_sums<<<blocks, block>>>(d_in, n, d_sums);
  CHECK(cudaGetLastError());
  block_max<<<blocks, block>>>(d_in, n, d_max);
  CHECK(cudaGetLastError());
  block_sums_split<<<blocks, block>>>(d_in, n, d_split);
  CHECK(cudaGetLastError());
  std::vector<long long> sums(blocks);
  std::vector<int> maxima(blocks);
  std::vector<long long> split(blocks);
  CHECK(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(maxima.data(), d_max, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(split.data(), d_split, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    long long want_sum = 0;
    int want_max = INT_MIN;
    for (int i = b * block; i < (b + 1) * block && i < n; ++i) {
      want_sum += h[i];
      want_max = h[i] > want_max ? h[i] : want_max;
    }
    if (sums[b] != want_sum && bad++ < 3) fprintf(stderr, "block %d: sum %lld, want %lld\n", b, sums[b], want_sum);
    if (maxima[b] != want_max && bad++ < 6) fprintf(stderr, "block %d: max %d, want %d\n", b, maxima[b], want_max);
    if (split[b] != want_sum && bad++ < 9) fprintf(stderr, "block %d: split sum %lld, want %lld\n", b, split[b], want_sum);
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_split));
  printf("%s: block sums and maxima mixing warpSize and 32 under #if and in a header\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
