// Code that looks like warp-size code but is not: a 32x32 shared-memory tiled
// transpose (`tile[32][33]`, 32x8 threads a block), a bitset of keys built with
// `key >> 5` (word) and `key & 31` (bit) into 32-bit words, and a hash whose
// bucket is `(h >> 5) & 31` over 32 buckets kept in `__shared__ unsigned bins[32]`.
// Every 32 here is a tile edge, a word width or a bucket count: a 64-lane
// wavefront changes none of them, and a translator must leave them alone.
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

#define TILE_DIM 32
#define BLOCK_ROWS 8
constexpr int kBuckets = 32;

// out (cols x rows) = transpose of in (rows x cols); the padding column keeps
// the column reads of the tile free of bank conflicts.
__global__ void transpose(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Membership bitset: key k sets bit (k & 31) of word (k >> 5).
__global__ void build_bitset(const unsigned* keys, int n, unsigned* bits) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const unsigned k = keys[i];
    atomicOr(&bits[k >> 5], 1u << (k & 31));
  }
}

__device__ __forceinline__ unsigned mix(unsigned k) {
  k ^= k >> 16;
  k *= 0x7feb352du;
  k ^= k >> 15;
  return k;
}

// 32-bucket histogram of hashed keys: per-block counts in shared memory, then
// one atomicAdd per bucket per block.
__global__ void hash_histogram(const unsigned* keys, int n, unsigned* counts) {
  __shared__ unsigned bins[32];
  if (threadIdx.x < kBuckets) bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned h = mix(keys[i]);
    atomicAdd(&bins[(h >> 5) & 31], 1u);
  }
  __syncthreads();
  if (threadIdx.x < kBuckets) atomicAdd(&counts[threadIdx.x], bins[threadIdx.x]);
}

static unsigned host_mix(unsigned k) {
  k ^= k >> 16;
  k *= 0x7feb352du;
  k ^= k >> 15;
  return k;
}

static int check(const char* what, bool ok) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  return ok ? 0 : 1;
}

int main() {
  int failures = 0;

  // Transpose of a 1000 x 777 matrix: neither side a multiple of 32.
  const int rows = 1000, cols = 777;
  std::vector<float> a(rows * cols);
  for (int i = 0; i < rows * cols; ++i) a[i] = static_cast<float>(i % 9973) * 0.5f;
  float *d_a, *d_t;
  CHECK(cudaMalloc(&d_a, a.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_t, a.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
  dim3 block(TILE_DIM, BLOCK_ROWS);
  transpose<<<grid, block>>>(d_a, d_t, rows, cols);
  CHECK(cudaGetLastError());
  std::vector<float> t(a.size());
  CHECK(cudaMemcpy(t.data(), d_t, t.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (t[c * rows + r] != a[r * cols + c] && bad++ < 3)
        fprintf(stderr, "t[%d][%d] %g, want %g\n", c, r, t[c * rows + r], a[r * cols + c]);
  failures += check("32x32 tiled transpose (tile[32][33]) of 1000 x 777", bad == 0);
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_t));

  // Keys for the bitset and the histogram.
  const int n = 200003;
  const unsigned universe = 1u << 20;
  std::vector<unsigned> keys(n);
  for (int i = 0; i < n; ++i) keys[i] = (static_cast<unsigned>(i) * 2654435761u) % universe;
  unsigned *d_keys, *d_bits, *d_counts;
  const int words = universe / 32;
  CHECK(cudaMalloc(&d_keys, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_bits, words * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_counts, kBuckets * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_keys, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_bits, 0, words * sizeof(unsigned)));
  CHECK(cudaMemset(d_counts, 0, kBuckets * sizeof(unsigned)));
  build_bitset<<<(n + 255) / 256, 256>>>(d_keys, n, d_bits);
  CHECK(cudaGetLastError());
  hash_histogram<<<120, 192>>>(d_keys, n, d_counts);
  CHECK(cudaGetLastError());
  std::vector<unsigned> bits(words), counts(kBuckets);
  CHECK(cudaMemcpy(bits.data(), d_bits, words * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts.data(), d_counts, kBuckets * sizeof(unsigned), cudaMemcpyDeviceToHost));

  std::vector<unsigned> want_bits(words, 0), want_counts(kBuckets, 0);
  for (unsigned k : keys) {
    want_bits[k / 32] |= 1u << (k % 32);
    ++want_counts[(host_mix(k) / 32) % 32];
  }
  failures += check("bitset of keys (k >> 5, k & 31)", bits == want_bits);
  bad = 0;
  for (int b = 0; b < kBuckets; ++b)
    if (counts[b] != want_counts[b] && bad++ < 3) fprintf(stderr, "bucket %d: %u, want %u\n", b, counts[b], want_counts[b]);
  failures += check("32-bucket hash histogram ((h >> 5) & 31)", bad == 0);
  CHECK(cudaFree(d_keys));
  CHECK(cudaFree(d_bits));
  CHECK(cudaFree(d_counts));

  if (failures) {
    printf("FAIL: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
