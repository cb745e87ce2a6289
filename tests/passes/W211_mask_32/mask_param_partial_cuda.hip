// cu2hip-options: --target cuda
// A mask parameter and a partial literal are 32-bit masks: reported (the parameter once,
// at its first use). Full masks are the hipify pass's; a 64-bit parameter is fine.
#define HALF_MASK 0x0000ffff

__device__ int sum_masked(unsigned int mask, int v) {
  v += __shfl_down_sync(mask, v, 16, 32);
  v += __shfl_down_sync(mask, v, 8, 32);
  return v;
}

__device__ int sum_wide(unsigned long long mask, int v) {
  return v + __shfl_down_sync(mask, v, 16, 32);
}

__global__ void k(int *out, int v) {
  v = sum_masked(0xffffffff, v) + sum_wide(~0ull, v);
  if (threadIdx.x % 32 < 16) v += __shfl_xor_sync(HALF_MASK, v, 1, 32);
  v += __shfl_xor_sync(0x0000ffffu, v, 2, 32);
  out[threadIdx.x] = v;
}
