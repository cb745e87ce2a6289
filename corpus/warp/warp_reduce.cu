// Warp reductions written the three ways CUDA code usually writes them, each
// assuming a 32-lane warp:
//  * a warpReduceSum helper looping offset = 16, 8, ..., 1 over __shfl_down_sync,
//    used by a block reduction with one shared slot per warp
//    (lane = threadIdx.x % 32, wid = threadIdx.x / 32, blockDim.x / 32 partials);
//  * the same reduction unrolled (16, 8, 4, 2, 1) in a helper that takes its
//    mask as a parameter, called with a FULL_MASK macro;
//  * a warp-per-row row sum that finds its warp and lane with `>> 5` and `& 31`.
// The block reduction runs at 256 and at 96 threads a block (3 warps), and every
// grid ends in a partial block.
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

#define FULL_MASK 0xffffffff

__device__ float warpReduceSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

// Sum over the block; the result is valid in thread 0.
__device__ float blockReduceSum(float v) {
  __shared__ float partial[32];
  const int lane = threadIdx.x % 32;
  const int wid = threadIdx.x / 32;
  v = warpReduceSum(v);
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  v = (threadIdx.x < blockDim.x / 32) ? partial[lane] : 0.0f;
  if (wid == 0) v = warpReduceSum(v);
  return v;
}

// Threads past the end carry 0 instead of returning, so every warp is whole.
__global__ void block_sums(const float* in, int n, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  v = blockReduceSum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

// The caller names the participating lanes, as the CUDA samples' reductions do.
__device__ __forceinline__ int warp_sum_unrolled(unsigned int mask, int v) {
  v += __shfl_down_sync(mask, v, 16);
  v += __shfl_down_sync(mask, v, 8);
  v += __shfl_down_sync(mask, v, 4);
  v += __shfl_down_sync(mask, v, 2);
  v += __shfl_down_sync(mask, v, 1);
  return v;
}

// Squares summed per block, unrolled shuffles; one int per warp in shared memory.
__global__ void block_sum_squares(const int* in, int n, long long* total) {
  __shared__ int warp_part[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int x = (i < n) ? in[i] : 0;
  int s = warp_sum_unrolled(FULL_MASK, x * x);
  if (lane == 0) warp_part[warp] = s;
  __syncthreads();
  if (warp == 0) {
    const int nwarps = blockDim.x / 32;
    int t = (lane < nwarps) ? warp_part[lane] : 0;
    t = warp_sum_unrolled(FULL_MASK, t);
    if (lane == 0) atomicAdd(reinterpret_cast<unsigned long long*>(total),
                             static_cast<unsigned long long>(t));
  }
}

// One warp per row of a rows x cols matrix: lanes stride the row by 32 and the
// warp folds its partial sums. Whole warps past the last row leave together.
__global__ void row_sums(const int* m, int rows, int cols, int* out) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = gid >> 5;
  const int lane = threadIdx.x & 31;
  if (row >= rows) return;
  int s = 0;
  for (int c = lane; c < cols; c += 32) s += m[row * cols + c];
  s = warp_sum_unrolled(FULL_MASK, s);
  if (lane == 0) out[row] = s;
}

static int check(const char* what, bool ok) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  return ok ? 0 : 1;
}

int main() {
  int failures = 0;

  // Block sums of floats (small integers, so every sum is exact in float).
  const int n = 100003;
  std::vector<float> hf(n);
  for (int i = 0; i < n; ++i) hf[i] = static_cast<float>((i * 37 + 11) % 101);
  float *d_f, *d_out;
  CHECK(cudaMalloc(&d_f, n * sizeof(float)));
  CHECK(cudaMemcpy(d_f, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (int threads : {256, 96}) {
    const int blocks = (n + threads - 1) / threads;
    CHECK(cudaMalloc(&d_out, blocks * sizeof(float)));
    block_sums<<<blocks, threads>>>(d_f, n, d_out);
    CHECK(cudaGetLastError());
    std::vector<float> got(blocks);
    CHECK(cudaMemcpy(got.data(), d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_out));
    int bad = 0;
    for (int b = 0; b < blocks; ++b) {
      float want = 0.0f;
      for (int i = b * threads; i < std::min(n, (b + 1) * threads); ++i) want += hf[i];
      if (got[b] != want) {
        if (bad < 3) fprintf(stderr, "%d threads: block %d sum %.1f, want %.1f\n", threads, b, got[b], want);
        ++bad;
      }
    }
    char what[96];
    snprintf(what, sizeof what, "blockReduceSum at %d threads a block, %d blocks", threads, blocks);
    failures += check(what, bad == 0);
  }
  CHECK(cudaFree(d_f));

  // Sum of squares with the unrolled reduction.
  std::vector<int> hi(n);
  for (int i = 0; i < n; ++i) hi[i] = (i * 13 + 5) % 61 - 30;
  int* d_i;
  long long* d_total;
  CHECK(cudaMalloc(&d_i, n * sizeof(int)));
  CHECK(cudaMalloc(&d_total, sizeof(long long)));
  CHECK(cudaMemcpy(d_i, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_total, 0, sizeof(long long)));
  block_sum_squares<<<(n + 127) / 128, 128>>>(d_i, n, d_total);
  CHECK(cudaGetLastError());
  long long total = 0, want_total = 0;
  CHECK(cudaMemcpy(&total, d_total, sizeof(long long), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) want_total += static_cast<long long>(hi[i]) * hi[i];
  if (total != want_total) fprintf(stderr, "sum of squares %lld, want %lld\n", total, want_total);
  failures += check("unrolled FULL_MASK reduction: sum of squares", total == want_total);
  CHECK(cudaFree(d_i));
  CHECK(cudaFree(d_total));

  // Row sums, one warp a row (`>> 5`, `& 31`); 4 warps a block, last block partial.
  const int rows = 1001, cols = 77;
  std::vector<int> hm(rows * cols);
  for (int i = 0; i < rows * cols; ++i) hm[i] = (i * 7) % 19 - 9;
  int *d_m, *d_rows;
  CHECK(cudaMalloc(&d_m, hm.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_rows, rows * sizeof(int)));
  CHECK(cudaMemcpy(d_m, hm.data(), hm.size() * sizeof(int), cudaMemcpyHostToDevice));
  const int threads = 128;
  row_sums<<<(rows * 32 + threads - 1) / threads, threads>>>(d_m, rows, cols, d_rows);
  CHECK(cudaGetLastError());
  std::vector<int> got_rows(rows);
  CHECK(cudaMemcpy(got_rows.data(), d_rows, rows * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < rows; ++r) {
    int want = 0;
    for (int c = 0; c < cols; ++c) want += hm[r * cols + c];
    if (got_rows[r] != want) {
      if (bad < 3) fprintf(stderr, "row %d sum %d, want %d\n", r, got_rows[r], want);
      ++bad;
    }
  }
  failures += check("warp-per-row sums (>> 5, & 31)", bad == 0);
  CHECK(cudaFree(d_m));
  CHECK(cudaFree(d_rows));

  if (failures) {
    printf("FAIL: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
