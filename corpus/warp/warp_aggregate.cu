// Warp-aggregated atomics written for any warp width (lanes from warpSize) that keep
// __activemask() and __ballot_sync() in an `unsigned` and compute on it as 32 bits:
// __ffs for the leader, __popc for the count, `1 << lane` for the lanes below, a copy
// into other locals, a walk over the set bits (`rest &= rest - 1`). On a 64-lane
// wavefront each such mask must be 64-bit, counted with __popcll/__ffsll, its lane bits
// `1ull << lane`: kept in 32 bits the lanes 32-63 are dropped and HIP's *_sync
// builtins static_assert a 64-bit mask. The shapes: a __device__ helper (divergent
// branch, __activemask), the same in a header (warp_aggregate.cuh), a ballot under #if
// (its leader from a macro, its lanes below from a helper of an `unsigned` parameter),
// and a per-warp maximum found by walking the ballot's bits. The per-warp maximum
// depends on the warp width: the device reports warpSize and the host checks with it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "warp_aggregate.cuh"

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(e_));                                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

#ifndef AGGREGATE_WITH_BALLOT
#define AGGREGATE_WITH_BALLOT 1
#endif

#define FULL_MASK 0xffffffff
constexpr int kBlock = 256;

// The lowest lane of a mask, and the count of a mask's lanes below a lane: a macro and a
// helper with a 32-bit parameter, each used only with masks.
#define LEADER(m) (__ffs(m) - 1)
__device__ int lanes_below(unsigned m, int lane) { return __popc(m & ((1u << lane) - 1)); }

// The lanes that arrive together share one atomicAdd: the lowest performs it and passes
// the old value on; each lane's slot is the count of arrived lanes below it.
__device__ int aggregate_inc(int* counter) {
  unsigned mask = __activemask();
  int leader = __ffs(mask) - 1;
  int n = __popc(mask);
  int lane = threadIdx.x & (warpSize - 1);
  int res = 0;
  if (lane == leader) res = atomicAdd(counter, n);
  res = __shfl_sync(mask, res, leader);
  return res + __popc(mask & ((1 << lane) - 1));
}

__global__ void aggregate(const int* in, int n, int* threes, int* threes_count, int* fives, int* fives_count,
                          int* sevens, int* sevens_count, int* warp_max, int* width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const bool valid = i < n;
  const int v = valid ? in[i] : -1;
  if (i == 0) *width = warpSize;

  // A divergent branch: the lanes that arrive together take one slot each.
  if (valid && v % 3 == 0) threes[aggregate_inc(threes_count)] = v;

  // Every lane votes (the tail of the last block votes false), so the full mask holds.
  const bool keep = valid && v % 7 == 0;
#if AGGREGATE_WITH_BALLOT
  unsigned votes = __ballot_sync(FULL_MASK, keep);
  if (votes != 0) {
    const int first = LEADER(votes);
    int base = 0;
    if (lane == first) base = atomicAdd(sevens_count, __popc(votes));
    base = __shfl_sync(FULL_MASK, base, first);
    if (keep) sevens[base + lanes_below(votes, lane)] = v;
  }
  // The largest kept value of the warp, from each voting lane in turn.
  int best = -1;
  for (unsigned rest = votes; rest != 0; rest &= rest - 1) {
    const int src = __ffs(rest) - 1;
    best = max(best, __shfl_sync(FULL_MASK, v, src));
  }
  if (lane == 0) warp_max[i / warpSize] = best;
#else
  if (keep) sevens[atomicAdd(sevens_count, 1)] = v;
  if (lane == 0) warp_max[i / warpSize] = -2;
#endif

  // The same from the header's helper (last: the 64-lane model orders divergent paths by
  // file, then line, and the header's name sorts after this file's).
  if (valid && v % 5 == 0) fives[aggregate_slot(fives_count)] = v;
}

static int check(const char* what, bool ok) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  return ok ? 0 : 1;
}

static int same(const char* what, std::vector<int> got, int got_count, std::vector<int> want) {
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  if (got_count != static_cast<int>(want.size())) fprintf(stderr, "%s: %d slots, want %zu\n", what, got_count, want.size());
  return check(what, got_count == static_cast<int>(want.size()) && got == want);
}

int main() {
  const int n = 40037;  // 157 blocks of 256, the last one partial
  const int blocks = (n + kBlock - 1) / kBlock;
  const int max_warps = blocks * (kBlock / 32);
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 389 + (i / 64) * 13) % 5000;
  for (int i = 32; i < 64; ++i) h[i] = 7 * i;   // lanes 32-63 of the first wavefront all kept
  for (int i = 64; i < 96; ++i) h[i] = 7 * i + 1;  // a warp with no kept value

  int *d_in, *d_threes, *d_fives, *d_sevens, *d_counts, *d_warp_max, *d_width;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_threes, n * sizeof(int)));
  CHECK(cudaMalloc(&d_fives, n * sizeof(int)));
  CHECK(cudaMalloc(&d_sevens, n * sizeof(int)));
  CHECK(cudaMalloc(&d_counts, 3 * sizeof(int)));
  CHECK(cudaMalloc(&d_warp_max, max_warps * sizeof(int)));
  CHECK(cudaMalloc(&d_width, sizeof(int)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_counts, 0, 3 * sizeof(int)));
  CHECK(cudaMemset(d_width, 0, sizeof(int)));

  aggregate<<<blocks, kBlock>>>(d_in, n, d_threes, d_counts, d_fives, d_counts + 1, d_sevens, d_counts + 2,
                                d_warp_max, d_width);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int counts[3] = {0, 0, 0};
  int width = 0;
  CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&width, d_width, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> got[3];
  int* lists[3] = {d_threes, d_fives, d_sevens};
  for (int k = 0; k < 3; ++k) {
    got[k].resize(std::min(std::max(counts[k], 0), n));
    if (!got[k].empty()) CHECK(cudaMemcpy(got[k].data(), lists[k], got[k].size() * sizeof(int), cudaMemcpyDeviceToHost));
  }
  int failures = 0;
  if (width != 32 && width != 64) {
    printf("FAIL: the device reports a warp of %d lanes\n", width);
    return 1;
  }
  const int warps = blocks * (kBlock / width);
  std::vector<int> warp_max(warps);
  CHECK(cudaMemcpy(warp_max.data(), d_warp_max, warps * sizeof(int), cudaMemcpyDeviceToHost));

  std::vector<int> want[3];
  std::vector<int> want_max(warps, -1);
  for (int i = 0; i < n; ++i) {
    if (h[i] % 3 == 0) want[0].push_back(h[i]);
    if (h[i] % 5 == 0) want[1].push_back(h[i]);
    if (h[i] % 7 == 0) {
      want[2].push_back(h[i]);
      want_max[i / width] = std::max(want_max[i / width], h[i]);
    }
  }
  failures += same("__activemask() aggregate in a __device__ helper (__ffs, __popc, 1 << lane)", got[0], counts[0],
                   want[0]);
  failures += same("__activemask() aggregate in a header, lane bits in a local", got[1], counts[1], want[1]);
  failures += same("__ballot_sync() aggregate under #if (a LEADER macro, a lanes_below helper)", got[2], counts[2],
                   want[2]);
  int bad_max = 0;
  for (int w = 0; w < warps; ++w) {
    if (warp_max[w] != want_max[w] && bad_max++ < 3)
      fprintf(stderr, "warp %d (of %d lanes): max %d, want %d\n", w, width, warp_max[w], want_max[w]);
  }
  failures += check("per-warp maximum by walking the ballot's bits (rest &= rest - 1)", bad_max == 0);

  for (void* p : {(void*)d_in, (void*)d_threes, (void*)d_fives, (void*)d_sevens, (void*)d_counts,
                  (void*)d_warp_max, (void*)d_width})
    CHECK(cudaFree(p));
  if (failures) {
    printf("FAIL: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS (warp of %d lanes)\n", width);
  return 0;
}
