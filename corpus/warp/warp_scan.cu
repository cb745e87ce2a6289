// Warp scans written for a 32-lane warp: an inclusive __shfl_up_sync scan
// (offsets 1, 2, 4, 8, 16, guarded by `lane >= offset`), a block scan built on it
// (lane 31 publishes each warp's total, warp 0 scans the totals), a three-kernel
// device-wide exclusive scan on top, and a __shfl_xor_sync butterfly (16 .. 1)
// whose every lane ends up holding the warp's total.
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

constexpr int kBlock = 256;
constexpr int kWarpSize = 32;

__device__ __forceinline__ int warp_inclusive_scan(int v) {
  const int lane = threadIdx.x % 32;
  for (int offset = 1; offset < 32; offset *= 2) {
    int y = __shfl_up_sync(0xffffffff, v, offset);
    if (lane >= offset) v += y;
  }
  return v;
}

// Inclusive scan over the block; *block_total receives the sum of the block.
__device__ int block_inclusive_scan(int v, int* block_total) {
  __shared__ int warp_totals[32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int nwarps = (blockDim.x + kWarpSize - 1) / kWarpSize;
  v = warp_inclusive_scan(v);
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = (lane < nwarps) ? warp_totals[lane] : 0;
    t = warp_inclusive_scan(t);
    warp_totals[lane] = t;  // now inclusive prefix over warps
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  *block_total = warp_totals[nwarps - 1];
  __syncthreads();  // warp_totals may be reused by the next call
  return v;
}

// Phase 1: exclusive scan within each block, plus the block's total.
__global__ void scan_blocks(const int* in, int n, int* out, int* block_sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int x = (i < n) ? in[i] : 0;
  int total;
  const int inclusive = block_inclusive_scan(x, &total);
  if (i < n) out[i] = inclusive - x;
  if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
}

// Phase 2: one block turns the block totals into exclusive block offsets,
// a block-sized chunk at a time with a running carry.
__global__ void scan_block_sums(int* block_sums, int count) {
  int carry = 0;
  for (int base = 0; base < count; base += blockDim.x) {
    const int i = base + threadIdx.x;
    const int x = (i < count) ? block_sums[i] : 0;
    int chunk_total;
    const int inclusive = block_inclusive_scan(x, &chunk_total);
    if (i < count) block_sums[i] = carry + inclusive - x;
    carry += chunk_total;
  }
}

// Phase 3: add each block's offset.
__global__ void add_offsets(int* out, int n, const int* block_offsets) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += block_offsets[blockIdx.x];
}

// Butterfly all-reduce: after the xor steps every lane holds the warp's sum,
// so each lane can normalise its own value without a broadcast.
__global__ void warp_normalise(const float* in, int n, float* share, float* totals) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = (i < n) ? in[i] : 0.0f;
  float sum = x;
  for (int mask = 16; mask > 0; mask >>= 1)
    sum += __shfl_xor_sync(0xffffffff, sum, mask);
  if (i < n) {
    share[i] = x / sum;
    totals[i] = sum;
  }
}

static int check(const char* what, bool ok) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  return ok ? 0 : 1;
}

int main() {
  int failures = 0;

  // Device-wide exclusive scan: 70001 elements, 274 blocks, last one partial;
  // phase 2 scans the 274 totals in chunks of 128 (three chunks, the last partial).
  const int n = 70001;
  const int blocks = (n + kBlock - 1) / kBlock;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 31 + 7) % 10;
  int *d_in, *d_out, *d_sums;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sums, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  scan_blocks<<<blocks, kBlock>>>(d_in, n, d_out, d_sums);
  CHECK(cudaGetLastError());
  std::vector<int> block_totals(blocks);
  CHECK(cudaMemcpy(block_totals.data(), d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  scan_block_sums<<<1, 128>>>(d_sums, blocks);
  CHECK(cudaGetLastError());
  std::vector<int> block_offsets(blocks);
  CHECK(cudaMemcpy(block_offsets.data(), d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  add_offsets<<<blocks, kBlock>>>(d_out, n, d_sums);
  CHECK(cudaGetLastError());
  std::vector<int> got(n);
  CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));

  int bad_totals = 0, bad_offsets = 0, bad_scan = 0, offset = 0;
  for (int b = 0; b < blocks; ++b) {
    int t = 0;
    for (int i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i) t += h[i];
    if (block_totals[b] != t && bad_totals++ < 3) fprintf(stderr, "block %d total %d, want %d\n", b, block_totals[b], t);
    if (block_offsets[b] != offset && bad_offsets++ < 3) fprintf(stderr, "block %d offset %d, want %d\n", b, block_offsets[b], offset);
    offset += t;
  }
  int run = 0;
  for (int i = 0; i < n; ++i) {
    if (got[i] != run && bad_scan++ < 3) fprintf(stderr, "scan[%d] %d, want %d\n", i, got[i], run);
    run += h[i];
  }
  failures += check("block scan totals (warp scan + lane 31 totals)", bad_totals == 0);
  failures += check("chunked scan of block totals (128 threads)", bad_offsets == 0);
  failures += check("device-wide exclusive scan", bad_scan == 0);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_sums));

  // Butterfly all-reduce: integer-valued floats, so every warp sum is exact and
  // the host's x / sum is bit-identical.
  const int m = 40000;  // 157 blocks of 256, the last partial
  std::vector<float> hf(m);
  for (int i = 0; i < m; ++i) hf[i] = static_cast<float>(1 + (i * 17) % 23);
  float *d_x, *d_share, *d_totals;
  CHECK(cudaMalloc(&d_x, m * sizeof(float)));
  CHECK(cudaMalloc(&d_share, m * sizeof(float)));
  CHECK(cudaMalloc(&d_totals, m * sizeof(float)));
  CHECK(cudaMemcpy(d_x, hf.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  warp_normalise<<<(m + kBlock - 1) / kBlock, kBlock>>>(d_x, m, d_share, d_totals);
  CHECK(cudaGetLastError());
  std::vector<float> share(m), totals(m);
  CHECK(cudaMemcpy(share.data(), d_share, m * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(totals.data(), d_totals, m * sizeof(float), cudaMemcpyDeviceToHost));
  int bad_sum = 0, bad_share = 0;
  for (int w = 0; w * 32 < m; ++w) {
    float sum = 0.0f;
    for (int i = w * 32; i < std::min(m, w * 32 + 32); ++i) sum += hf[i];
    for (int i = w * 32; i < std::min(m, w * 32 + 32); ++i) {
      if (totals[i] != sum && bad_sum++ < 3) fprintf(stderr, "lane total[%d] %.1f, want %.1f\n", i, totals[i], sum);
      if (share[i] != hf[i] / sum && bad_share++ < 3) fprintf(stderr, "share[%d] %g, want %g\n", i, share[i], hf[i] / sum);
    }
  }
  failures += check("__shfl_xor_sync butterfly: every lane holds the warp total", bad_sum == 0);
  failures += check("per-lane share of the warp total", bad_share == 0);
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_share));
  CHECK(cudaFree(d_totals));

  if (failures) {
    printf("FAIL: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
