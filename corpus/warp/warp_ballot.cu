// Warp votes written for a 32-lane warp: per-warp __ballot_sync with __popc and
// __ffs, a warp-aggregated stream compaction (one atomicAdd per warp, each lane's
// slot from the popcount of the ballot bits below it), the same done by the lanes
// of a divergent branch from __activemask() kept in an `unsigned`, __any_sync /
// __all_sync, and lane 31 written as the warp's last lane. The grid ends in a
// partial block whose tail threads vote false instead of returning, so FULL_MASK
// holds for every warp.
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
constexpr int kBlock = 256;
constexpr int kThreshold = 700;

// Warp-aggregated increment: the lanes that arrive together share one atomicAdd,
// the lowest of them performs it and passes the old value on; each lane's slot is
// the count of arrived lanes below it.
__device__ int atomic_agg_inc(int* counter) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  int lane = threadIdx.x % 32;
  int old = 0;
  if (lane == leader) old = atomicAdd(counter, __popc(active));
  old = __shfl_sync(active, old, leader);
  return old + __popc(active & ((1u << lane) - 1));
}

struct WarpStats {
  int count;       // lanes whose value is above the threshold
  int first;       // lowest such lane, -1 if none
  int any_zero;    // some lane holds a multiple of 100
  int all_even;    // every lane holds an even value
  int last_value;  // the value held by lane 31
};

__global__ void warp_votes(const int* in, int n, WarpStats* stats, int* kept, int* kept_count,
                           int* threes, int* threes_count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = i / 32;
  const bool valid = i < n;
  const int v = valid ? in[i] : -1;
  const bool pred = valid && v > kThreshold;

  unsigned m = __ballot_sync(FULL_MASK, pred);
  int cnt = __popc(m);
  int first = __ffs(m) - 1;

  // Warp-aggregated compaction: the first voting lane reserves room for the warp.
  int base = 0;
  if (cnt > 0) {
    if (lane == first) base = atomicAdd(kept_count, cnt);
    base = __shfl_sync(FULL_MASK, base, first);
    if (pred) kept[base + __popc(m & ((1u << lane) - 1))] = v;
  }

  int any_zero = __any_sync(FULL_MASK, valid && v % 100 == 0);
  int all_even = __all_sync(FULL_MASK, valid && v % 2 == 0);
  if (lane == 31) {
    WarpStats s;
    s.count = cnt;
    s.first = first;
    s.any_zero = any_zero ? 1 : 0;
    s.all_even = all_even ? 1 : 0;
    s.last_value = v;
    stats[warp] = s;
  }

  // Divergent branch: the lanes that arrive together take one slot each.
  if (valid && v % 3 == 0) threes[atomic_agg_inc(threes_count)] = v;
}

static int check(const char* what, bool ok) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  return ok ? 0 : 1;
}

int main() {
  const int n = 50021;  // 196 blocks of 256, the last one partial
  const int blocks = (n + kBlock - 1) / kBlock;
  const int warps = blocks * (kBlock / 32);
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 193 + (i / 32) * 71) % 1000;
  for (int i = 96; i < 128; ++i) h[i] = 2 * i;         // warp 3: no vote, all even
  for (int i = 160; i < 192; ++i) h[i] = 900 + i % 2;  // warp 5: every lane votes

  int *d_in, *d_kept, *d_kept_count;
  WarpStats* d_stats;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_kept, n * sizeof(int)));
  CHECK(cudaMalloc(&d_kept_count, sizeof(int)));
  CHECK(cudaMalloc(&d_stats, warps * sizeof(WarpStats)));
  int *d_threes, *d_threes_count;
  CHECK(cudaMalloc(&d_threes, n * sizeof(int)));
  CHECK(cudaMalloc(&d_threes_count, sizeof(int)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_kept_count, 0, sizeof(int)));
  CHECK(cudaMemset(d_threes_count, 0, sizeof(int)));

  warp_votes<<<blocks, kBlock>>>(d_in, n, d_stats, d_kept, d_kept_count, d_threes,
                                 d_threes_count);
  CHECK(cudaGetLastError());

  std::vector<WarpStats> stats(warps);
  int kept_count = 0;
  int threes_count = 0;
  CHECK(cudaMemcpy(stats.data(), d_stats, warps * sizeof(WarpStats), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&kept_count, d_kept_count, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&threes_count, d_threes_count, sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> kept(std::max(kept_count, 0));
  if (kept_count > 0 && kept_count <= n)
    CHECK(cudaMemcpy(kept.data(), d_kept, kept_count * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> threes(std::max(threes_count, 0));
  if (threes_count > 0 && threes_count <= n)
    CHECK(cudaMemcpy(threes.data(), d_threes, threes_count * sizeof(int), cudaMemcpyDeviceToHost));

  int failures = 0;
  int bad_count = 0, bad_first = 0, bad_votes = 0, bad_last = 0;
  std::vector<int> want_kept, want_threes;
  for (int w = 0; w < warps; ++w) {
    int cnt = 0, first = -1, any_zero = 0, all_even = 1;
    for (int l = 0; l < 32; ++l) {
      const int i = w * 32 + l;
      const bool valid = i < n;
      const int v = valid ? h[i] : -1;
      if (valid && v > kThreshold) {
        ++cnt;
        if (first < 0) first = l;
        want_kept.push_back(v);
      }
      any_zero |= valid && v % 100 == 0;
      all_even &= valid && v % 2 == 0;
      if (valid && v % 3 == 0) want_threes.push_back(v);
    }
    const int last = (w * 32 + 31 < n) ? h[w * 32 + 31] : -1;
    const WarpStats& s = stats[w];
    if (s.count != cnt) { if (bad_count++ < 3) fprintf(stderr, "warp %d: popc %d, want %d\n", w, s.count, cnt); }
    if (s.first != first) { if (bad_first++ < 3) fprintf(stderr, "warp %d: ffs-1 %d, want %d\n", w, s.first, first); }
    if (s.any_zero != any_zero || s.all_even != all_even) {
      if (bad_votes++ < 3) fprintf(stderr, "warp %d: any %d all %d, want %d %d\n", w, s.any_zero, s.all_even, any_zero, all_even);
    }
    if (s.last_value != last) { if (bad_last++ < 3) fprintf(stderr, "warp %d: lane 31 %d, want %d\n", w, s.last_value, last); }
  }
  failures += check("__ballot_sync + __popc per warp", bad_count == 0);
  failures += check("__ffs(ballot) - 1 is the first voting lane", bad_first == 0);
  failures += check("__any_sync / __all_sync per warp", bad_votes == 0 && stats[3].count == 0 &&
                                                         stats[3].all_even == 1 && stats[5].count == 32);
  failures += check("lane 31 is the warp's last lane", bad_last == 0);

  // Compaction order between warps depends on the atomics; compare as multisets.
  std::sort(kept.begin(), kept.end());
  std::sort(want_kept.begin(), want_kept.end());
  if (kept_count != static_cast<int>(want_kept.size()))
    fprintf(stderr, "compaction kept %d, want %zu\n", kept_count, want_kept.size());
  failures += check("warp-aggregated compaction", kept == want_kept);

  std::sort(threes.begin(), threes.end());
  std::sort(want_threes.begin(), want_threes.end());
  if (threes_count != static_cast<int>(want_threes.size()))
    fprintf(stderr, "__activemask compaction kept %d, want %zu\n", threes_count, want_threes.size());
  failures += check("__activemask() aggregated increment in a divergent branch", threes == want_threes);

  for (void* p : {(void*)d_in, (void*)d_kept, (void*)d_kept_count, (void*)d_stats, (void*)d_threes,
                  (void*)d_threes_count})
    CHECK(cudaFree(p));
  if (failures) {
    printf("FAIL: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
