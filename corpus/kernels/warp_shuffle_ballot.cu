// Warp-level primitives written the way most CUDA code writes them, assuming
// a 32-wide warp: a __shfl_down_sync block reduction with one shared slot per
// warp, __shfl_sync broadcast, __shfl_xor_sync butterfly max, __shfl_up_sync
// inclusive scan, and __ballot_sync / __popc / __any_sync / __all_sync votes.
#include <algorithm>
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

#define FULL_MASK 0xffffffffu
constexpr int kBlock = 256;
constexpr int kThreshold = 600;

__device__ __forceinline__ int warp_reduce_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__device__ __forceinline__ int warp_reduce_max(int v) {
  for (int mask = 16; mask >= 1; mask >>= 1)
    v = max(v, __shfl_xor_sync(FULL_MASK, v, mask));
  return v;
}

// Every thread of every warp runs the whole kernel: out-of-range threads carry
// neutral values instead of returning early, so the full mask stays valid.
__global__ void __launch_bounds__(kBlock)
warp_ops(const int* in, int n, int* block_sums, int* warp_max, int* scan,
         int* broadcast, unsigned int* above_count, int* warp_any, int* warp_all) {
  __shared__ int warp_sums[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int global_warp = i / 32;
  const bool valid = i < n;
  const int v = valid ? in[i] : 0;

  // Block sum: shuffle within each warp, then the first warp folds the partials.
  int s = warp_reduce_sum(v);
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    int t = (lane < blockDim.x / 32) ? warp_sums[lane] : 0;
    t = warp_reduce_sum(t);
    if (lane == 0) block_sums[blockIdx.x] = t;
  }

  // Butterfly max leaves the result in every lane; lane 7 writes it.
  int m = warp_reduce_max(valid ? v : -1);
  if (lane == 7) warp_max[global_warp] = m;

  // Inclusive scan within the warp.
  int x = v;
  for (int offset = 1; offset < 32; offset *= 2) {
    int y = __shfl_up_sync(FULL_MASK, x, offset);
    if (lane >= offset) x += y;
  }
  if (valid) scan[i] = x;

  // Broadcast lane 0's input to the whole warp.
  int first = __shfl_sync(FULL_MASK, v, 0);
  if (valid) broadcast[i] = first;

  // Votes.
  const bool pred = valid && v > kThreshold;
  unsigned int ballot = __ballot_sync(FULL_MASK, pred);
  if (lane == 0) atomicAdd(above_count, static_cast<unsigned int>(__popc(ballot)));
  int any = __any_sync(FULL_MASK, pred);
  int all = __all_sync(FULL_MASK, valid && v >= 0);
  if (lane == 0) {
    warp_any[global_warp] = any ? 1 : 0;
    warp_all[global_warp] = all ? 1 : 0;
  }
}

int main() {
  const int n = 100000;  // not a multiple of the block size
  const int blocks = (n + kBlock - 1) / kBlock;
  const int warps = blocks * (kBlock / 32);
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 7 + (i / 32) * 13) % 1000;
  for (int i = 64; i < 96; ++i) h[i] = 10;  // warp 2 entirely below the threshold

  int *d_in, *d_bsum, *d_wmax, *d_scan, *d_bcast, *d_any, *d_all;
  unsigned int* d_count;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_bsum, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_wmax, warps * sizeof(int)));
  CHECK(cudaMalloc(&d_scan, n * sizeof(int)));
  CHECK(cudaMalloc(&d_bcast, n * sizeof(int)));
  CHECK(cudaMalloc(&d_any, warps * sizeof(int)));
  CHECK(cudaMalloc(&d_all, warps * sizeof(int)));
  CHECK(cudaMalloc(&d_count, sizeof(unsigned int)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_count, 0, sizeof(unsigned int)));

  warp_ops<<<blocks, kBlock>>>(d_in, n, d_bsum, d_wmax, d_scan, d_bcast, d_count,
                               d_any, d_all);
  CHECK(cudaGetLastError());

  std::vector<int> bsum(blocks), wmax(warps), scan(n), bcast(n), wany(warps), wall(warps);
  unsigned int count = 0;
  CHECK(cudaMemcpy(bsum.data(), d_bsum, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(wmax.data(), d_wmax, warps * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(scan.data(), d_scan, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bcast.data(), d_bcast, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(wany.data(), d_any, warps * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(wall.data(), d_all, warps * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&count, d_count, sizeof(unsigned int), cudaMemcpyDeviceToHost));

  int bad = 0;
  unsigned int want_count = 0;
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i) want += h[i];
    if (bsum[b] != want) { if (bad < 5) fprintf(stderr, "block %d sum %d, want %d\n", b, bsum[b], want); ++bad; }
  }
  for (int w = 0; w < warps; ++w) {
    int lo = w * 32, hi = std::min(n, lo + 32);
    int want_max = -1, want_any = 0, want_all = 1, run = 0;
    for (int i = lo; i < hi; ++i) {
      want_max = std::max(want_max, h[i]);
      want_any |= h[i] > kThreshold;
      want_count += h[i] > kThreshold;
      run += h[i];
      if (scan[i] != run) { if (bad < 5) fprintf(stderr, "scan[%d] %d, want %d\n", i, scan[i], run); ++bad; }
      if (bcast[i] != h[lo]) { if (bad < 5) fprintf(stderr, "bcast[%d] %d\n", i, bcast[i]); ++bad; }
    }
    if (hi - lo < 32) want_all = 0;  // a lane past the end votes false
    if (wmax[w] != want_max || wany[w] != want_any || wall[w] != want_all) {
      if (bad < 5) fprintf(stderr, "warp %d: max %d any %d all %d\n", w, wmax[w], wany[w], wall[w]);
      ++bad;
    }
  }
  if (count != want_count) { fprintf(stderr, "ballot count %u, want %u\n", count, want_count); ++bad; }
  if (wany[2] != 0) { fprintf(stderr, "warp 2 should have no lane above the threshold\n"); ++bad; }

  for (void* p : {(void*)d_in, (void*)d_bsum, (void*)d_wmax, (void*)d_scan,
                  (void*)d_bcast, (void*)d_any, (void*)d_all, (void*)d_count})
    CHECK(cudaFree(p));
  if (bad) {
    printf("FAIL: %d errors\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
