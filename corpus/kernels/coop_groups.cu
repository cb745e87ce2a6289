// Cooperative groups: a block reduction over tiled_partition<32> tiles,
// and a grid-wide two-phase kernel (sum, grid.sync(), subtract the mean)
// launched with cudaLaunchCooperativeKernel at a size that fits co-residency.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(e_));                                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

constexpr int kThreads = 256;

template <typename Tile>
__device__ int tile_sum(const Tile& tile, int v) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  return v;
}

// Sum of this block's values; valid in thread 0 of the block only.
__device__ int block_sum(cg::thread_block block, int v) {
  __shared__ int partial[kThreads / 32];
  auto tile = cg::tiled_partition<32>(block);
  v = tile_sum(tile, v);
  const int tile_id = block.thread_rank() / 32;
  if (tile.thread_rank() == 0) partial[tile_id] = v;
  block.sync();
  int total = 0;
  if (block.thread_rank() == 0)
    for (int t = 0; t < kThreads / 32; ++t) total += partial[t];
  block.sync();  // partial[] may be reused by the next call
  return total;
}

__global__ void __launch_bounds__(kThreads)
center(const int* in, int* out, int n, int* block_partials, int* mean_out) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();

  // Phase 1: each block sums a grid-stride slice.
  int local = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    local += in[i];
  int s = block_sum(block, local);
  if (block.thread_rank() == 0) block_partials[blockIdx.x] = s;

  grid.sync();

  // Phase 2: block 0 folds the partials into the mean.
  if (blockIdx.x == 0) {
    int t = 0;
    for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) t += block_partials[b];
    t = block_sum(block, t);
    if (block.thread_rank() == 0) *mean_out = t / n;
  }

  cg::this_grid().sync();  // same barrier, spelled inline

  // Phase 3: everyone subtracts the mean.
  const int mean = *mean_out;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = in[i] - mean;
}

static int cooperative_grid_size(int device, int want_blocks) {
  int supported = 0, sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, device));
  if (!supported) return 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, center, kThreads, 0));
  return std::min(want_blocks, sms * per_sm);
}

int main() {
  int device = 0;
  CHECK(cudaGetDevice(&device));
  int n = 1 << 20;
  std::vector<int> h_in(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = (i * 2654435761u) >> 25;  // 0..127

  const int blocks = cooperative_grid_size(device, (n + kThreads - 1) / kThreads);
  if (blocks <= 0) {
    printf("FAIL: cooperative launch not supported\n");
    return 1;
  }

  int *d_in, *d_out, *d_partials, *d_mean;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_partials, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_mean, sizeof(int)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  void* args[] = {&d_in, &d_out, &n, &d_partials, &d_mean};
  CHECK(cudaLaunchCooperativeKernel((void*)center, dim3(blocks), dim3(kThreads), args, 0, 0));
  CHECK(cudaDeviceSynchronize());

  int mean = 0;
  CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&mean, d_mean, sizeof(int), cudaMemcpyDeviceToHost));

  long long total = 0;
  for (int x : h_in) total += x;
  const int want_mean = static_cast<int>(total / n);
  int bad = 0;
  if (mean != want_mean) {
    fprintf(stderr, "mean %d, want %d\n", mean, want_mean);
    ++bad;
  }
  for (int i = 0; i < n; ++i)
    if (h_out[i] != h_in[i] - want_mean) {
      if (bad < 5) fprintf(stderr, "out[%d] = %d, want %d\n", i, h_out[i], h_in[i] - want_mean);
      ++bad;
    }

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_partials));
  CHECK(cudaFree(d_mean));
  if (bad) {
    printf("FAIL: %d errors (grid of %d blocks)\n", bad, blocks);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
