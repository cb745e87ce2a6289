// A block reduction whose helper is written for any warp width (offsets from
// warpSize / 2, lanes % warpSize) while the kernel splits threads into lanes and warps
// on 32 (`% 32`, `/ 32`) and counts its warps as (blockDim.x + 31) / 32. On a 64-lane
// wavefront the two disagree: the whole kernel must move to warpSize together, the
// count of warps included, or lane 32 of each wavefront writes a second partial sum.
// The results are per block, so they do not depend on the warp width.
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

__device__ long long warp_reduce(long long v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void block_sums(const int* in, int n, long long* out) {
  __shared__ long long partial[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const int warps = (blockDim.x + 31) / 32;
  long long v = i < n ? in[i] : 0;
  v = warp_reduce(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < warps ? partial[lane] : 0;
    v = warp_reduce(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

int main() {
  const int block = 256;
  const int n = 100003;
  const int blocks = (n + block - 1) / block;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 2003 - 1000;
  int* d_in;
  long long* d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, blocks * sizeof(long long)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  block_sums<<<blocks, block>>>(d_in, n, d_out);
  CHECK(cudaGetLastError());
  std::vector<long long> out(blocks);
  CHECK(cudaMemcpy(out.data(), d_out, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    long long want = 0;
    for (int i = b * block; i < (b + 1) * block && i < n; ++i) want += h[i];
    if (out[b] != want && bad++ < 3) fprintf(stderr, "block %d: sum %lld, want %lld\n", b, out[b], want);
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  printf("%s: block sums of a kernel mixing warpSize and 32\n", bad ? "FAIL" : "PASS");
  if (bad) return 1;
  printf("PASS\n");
  return 0;
}
