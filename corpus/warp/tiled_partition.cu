// Cooperative-groups tiles used as warps: thread_block_tile<32> from
// tiled_partition<32>(this_thread_block()) reduces with tile.shfl_down over
// tile.size() lanes, tile.thread_rank() == 0 publishes, and the tile's index in
// the block is block.thread_rank() / tile.size(); a thread_block_tile<16> does
// segmented work (one 16-wide row per tile, shfl_xor all-reduce, shfl_up scan).
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

__device__ int tile_reduce_sum(cg::thread_block_tile<32> tile, int v) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  return v;
}

// One int per 32-thread tile, then the first tile folds them: a block max and a block sum.
__global__ void tile_block_reduce(const int* in, int n, int* block_sum, int* block_max) {
  __shared__ int sums[kThreads / 32];
  __shared__ int maxes[kThreads / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = (i < n) ? in[i] : 0;

  int s = tile_reduce_sum(tile, v);
  int m = (i < n) ? v : -1;
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    m = max(m, tile.shfl_xor(m, offset));

  const int tile_id = block.thread_rank() / tile.size();
  if (tile.thread_rank() == 0) {
    sums[tile_id] = s;
    maxes[tile_id] = m;
  }
  block.sync();
  if (tile_id == 0) {
    const int ntiles = block.size() / tile.size();
    int t = (tile.thread_rank() < ntiles) ? sums[tile.thread_rank()] : 0;
    int u = (tile.thread_rank() < ntiles) ? maxes[tile.thread_rank()] : -1;
    t = tile_reduce_sum(tile, t);
    for (int offset = 16; offset > 0; offset /= 2) u = max(u, tile.shfl_down(u, offset));
    if (tile.thread_rank() == 0) {
      block_sum[blockIdx.x] = t;
      block_max[blockIdx.x] = u;
    }
  }
}

// Each 16-thread tile owns one 16-wide row: the row's sum lands in every lane
// (shfl_xor), each lane writes its inclusive prefix (shfl_up), and lane 0 of the
// tile broadcasts the row's first element (shfl).
__global__ void rows_of_16(const int* m, int rows, int* row_sum, int* prefix, int* first) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  const int row = blockIdx.x * (blockDim.x / tile.size()) + block.thread_rank() / tile.size();
  const int col = tile.thread_rank();
  const bool valid = row < rows;
  const int x = valid ? m[row * 16 + col] : 0;

  int s = x;
  for (int mask = tile.size() / 2; mask > 0; mask /= 2) s += tile.shfl_xor(s, mask);

  int p = x;
  for (int offset = 1; offset < tile.size(); offset *= 2) {
    int y = tile.shfl_up(p, offset);
    if (tile.thread_rank() >= offset) p += y;
  }
  const int head = tile.shfl(x, 0);
  tile.sync();

  if (valid) {
    prefix[row * 16 + col] = p;
    if (col == tile.size() - 1) row_sum[row] = s;
    if (col == 5) first[row] = head;
  }
}

static int check(const char* what, bool ok) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  return ok ? 0 : 1;
}

int main() {
  int failures = 0;

  const int n = 123457;  // 483 blocks of 256, the last partial
  const int blocks = (n + kThreads - 1) / kThreads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 2654435761u >> 7) % 5000;
  int *d_in, *d_sum, *d_max;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sum, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_max, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  tile_block_reduce<<<blocks, kThreads>>>(d_in, n, d_sum, d_max);
  CHECK(cudaGetLastError());
  std::vector<int> bsum(blocks), bmax(blocks);
  CHECK(cudaMemcpy(bsum.data(), d_sum, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bmax.data(), d_max, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  int bad_sum = 0, bad_max = 0;
  for (int b = 0; b < blocks; ++b) {
    int s = 0, m = -1;
    for (int i = b * kThreads; i < std::min(n, (b + 1) * kThreads); ++i) {
      s += h[i];
      m = std::max(m, h[i]);
    }
    if (bsum[b] != s && bad_sum++ < 3) fprintf(stderr, "block %d sum %d, want %d\n", b, bsum[b], s);
    if (bmax[b] != m && bad_max++ < 3) fprintf(stderr, "block %d max %d, want %d\n", b, bmax[b], m);
  }
  failures += check("thread_block_tile<32> block sum (shfl_down)", bad_sum == 0);
  failures += check("thread_block_tile<32> block max (shfl_xor, then shfl_down)", bad_max == 0);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_max));

  // 16-wide rows: 8 rows a 128-thread block, 1003 rows, so the last block is partial.
  const int rows = 1003, threads = 128;
  const int row_blocks = (rows + threads / 16 - 1) / (threads / 16);
  std::vector<int> hm(rows * 16);
  for (int i = 0; i < rows * 16; ++i) hm[i] = (i * 29 + 3) % 41 - 20;
  int *d_m, *d_rsum, *d_prefix, *d_first;
  CHECK(cudaMalloc(&d_m, hm.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_rsum, rows * sizeof(int)));
  CHECK(cudaMalloc(&d_prefix, hm.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_first, rows * sizeof(int)));
  CHECK(cudaMemcpy(d_m, hm.data(), hm.size() * sizeof(int), cudaMemcpyHostToDevice));
  rows_of_16<<<row_blocks, threads>>>(d_m, rows, d_rsum, d_prefix, d_first);
  CHECK(cudaGetLastError());
  std::vector<int> rsum(rows), prefix(hm.size()), first(rows);
  CHECK(cudaMemcpy(rsum.data(), d_rsum, rows * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(prefix.data(), d_prefix, hm.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(first.data(), d_first, rows * sizeof(int), cudaMemcpyDeviceToHost));
  int bad_rsum = 0, bad_prefix = 0, bad_first = 0;
  for (int r = 0; r < rows; ++r) {
    int run = 0;
    for (int c = 0; c < 16; ++c) {
      run += hm[r * 16 + c];
      if (prefix[r * 16 + c] != run && bad_prefix++ < 3)
        fprintf(stderr, "prefix[%d][%d] %d, want %d\n", r, c, prefix[r * 16 + c], run);
    }
    if (rsum[r] != run && bad_rsum++ < 3) fprintf(stderr, "row %d sum %d, want %d\n", r, rsum[r], run);
    if (first[r] != hm[r * 16] && bad_first++ < 3) fprintf(stderr, "row %d head %d, want %d\n", r, first[r], hm[r * 16]);
  }
  failures += check("thread_block_tile<16> row sums (shfl_xor)", bad_rsum == 0);
  failures += check("thread_block_tile<16> row prefixes (shfl_up)", bad_prefix == 0);
  failures += check("thread_block_tile<16> broadcast of lane 0 (shfl)", bad_first == 0);
  for (void* p : {(void*)d_m, (void*)d_rsum, (void*)d_prefix, (void*)d_first}) CHECK(cudaFree(p));

  if (failures) {
    printf("FAIL: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
