// Warp code of 32-lane warps that needs the warp-size pass on a 64-lane wavefront:
// votes used directly in expressions (__all_sync in a condition, __popc of a ballot),
// a warp-synchronous exchange through shared memory ordered by __syncwarp(), a
// reduction through the program's own macro named like HIP's builtin
// (`#define __shfl_down(v, d) ...`), and blocks of 96 threads, whose second 64-lane
// wavefront is half full (a full 64-bit mask would not be the lanes that arrive).
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
#define __shfl_down(v, d) __shfl_down_sync(FULL_MASK, v, d)
constexpr int kBlock = 96;

struct WarpOut {
  int sum;        // sum over the warp (through the macro)
  int positives;  // lanes holding a positive value
  int all_small;  // every lane holds a value below 50
  int rotated;    // lane 0's value after the exchange: lane 1's input
};

__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  return v;
}

__global__ void warp_votes(const int* in, int n, WarpOut* out) {
  __shared__ int ring[kBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = i / 32;
  const int v = i < n ? in[i] : 0;

  const int sum = warp_sum(v);
  const int positives = __popc(__ballot_sync(FULL_MASK, v > 0));
  int all_small = 0;
  if (__all_sync(FULL_MASK, v < 50)) all_small = 1;

  // Each lane publishes its value, and after the warp's barrier reads its right-hand
  // neighbour's (lane 31 reads lane 0 of its own warp).
  ring[threadIdx.x] = v;
  __syncwarp();
  const int right = ring[threadIdx.x - lane + (lane + 1) % 32];

  if (lane == 0) {
    WarpOut o;
    o.sum = sum;
    o.positives = positives;
    o.all_small = all_small;
    o.rotated = right;
    out[warp] = o;
  }
}

static int check(const char* what, bool ok) {
  printf("%s: %s\n", ok ? "PASS" : "FAIL", what);
  return ok ? 0 : 1;
}

int main() {
  const int blocks = 317;
  const int n = blocks * kBlock;  // every warp full: the full mask holds on CUDA
  const int warps = n / 32;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 37 + (i / 32) * 11) % 101 - 30;
  for (int i = 64; i < 96; ++i) h[i] = i % 7;         // warp 2: all below 50
  for (int i = 160; i < 192; ++i) h[i] = -1 - i % 5;  // warp 5: no positive lane

  int* d_in;
  WarpOut* d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, warps * sizeof(WarpOut)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  warp_votes<<<blocks, kBlock>>>(d_in, n, d_out);
  CHECK(cudaGetLastError());
  std::vector<WarpOut> out(warps);
  CHECK(cudaMemcpy(out.data(), d_out, warps * sizeof(WarpOut), cudaMemcpyDeviceToHost));

  int bad_sum = 0, bad_pos = 0, bad_all = 0, bad_rot = 0;
  for (int w = 0; w < warps; ++w) {
    int sum = 0, pos = 0, all_small = 1;
    for (int l = 0; l < 32; ++l) {
      const int v = h[w * 32 + l];
      sum += v;
      pos += v > 0;
      all_small &= v < 50;
    }
    const int rotated = h[w * 32 + 1];
    if (out[w].sum != sum && bad_sum++ < 3) fprintf(stderr, "warp %d: sum %d, want %d\n", w, out[w].sum, sum);
    if (out[w].positives != pos && bad_pos++ < 3)
      fprintf(stderr, "warp %d: positives %d, want %d\n", w, out[w].positives, pos);
    if (out[w].all_small != all_small && bad_all++ < 3)
      fprintf(stderr, "warp %d: all_small %d, want %d\n", w, out[w].all_small, all_small);
    if (out[w].rotated != rotated && bad_rot++ < 3)
      fprintf(stderr, "warp %d: rotated %d, want %d\n", w, out[w].rotated, rotated);
  }
  int failures = 0;
  failures += check("warp sum through a macro named __shfl_down", bad_sum == 0);
  failures += check("__popc(__ballot_sync(...)) per warp", bad_pos == 0 && out[5].positives == 0);
  failures += check("__all_sync in a condition", bad_all == 0 && out[2].all_small == 1);
  failures += check("shared-memory exchange ordered by __syncwarp()", bad_rot == 0);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (failures) {
    printf("FAIL: %d checks failed\n", failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
