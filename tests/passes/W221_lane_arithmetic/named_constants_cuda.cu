// cu2hip-options: --target cuda
// Lanes and warps on a 32 that a macro or a const names are lane arithmetic on 32: with
// the reduction over warpSize lanes, every one is rewritten with it (left as they were,
// the lanes of 32 and the 64-lane reduction disagree on CDNA: a wrong sum).
#define WARP_SIZE 32
constexpr int kLanes = 32;

__device__ int warp_sum(int v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__global__ void block_sum(const int *in, int *out) {
  __shared__ int partial[WARP_SIZE];
  const int warps = 32;
  int v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % WARP_SIZE == 0) partial[threadIdx.x / WARP_SIZE] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / warps ? partial[threadIdx.x % kLanes] : 0;
  if (threadIdx.x / kLanes == 0) v = warp_sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
