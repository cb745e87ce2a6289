// A block reduction kept in a header, kernel and helper both (warp_max, block_max), and
// a helper alone that warp_mixed_variants.cu's kernel calls (warp_sum). The helpers reduce over
// warpSize, the kernel splits threads into lanes and warps on 32 and counts its warps as
// (blockDim.x + 31) / 32. On a 64-lane wavefront they must agree on one width.
#pragma once

__device__ inline int warp_max(int v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v = max(v, __shfl_down_sync(0xffffffff, v, offset));
  return v;
}

__device__ inline long long warp_sum(long long v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

__global__ void block_max(const int* in, int n, int* out) {
  __shared__ int partial[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int warps = (blockDim.x + 31) / 32;
  int v = i < n ? in[i] : -2147483647;
  v = warp_max(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < warps ? partial[lane] : -2147483647;
    v = warp_max(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
