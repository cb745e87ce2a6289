// Binary operators and a launch helper shared by the templated reductions.
#ifndef CORPUS_REDUCE_OPS_CUH
#define CORPUS_REDUCE_OPS_CUH

#include <cuda_runtime.h>

struct SumOp {
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return a + b;
  }
};

struct MaxOp {
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};

// Grid-stride accumulation into a per-thread value, then a shared-memory tree
// over the block. The shared buffer is the dynamic allocation sized at launch.
template <typename T, int BLOCK, typename Op>
__global__ void __launch_bounds__(BLOCK)
block_reduce(const T* __restrict__ in, T* __restrict__ out, int n, T identity,
             Op op) {
  extern __shared__ __align__(sizeof(double)) unsigned char smem_raw[];
  T* sdata = reinterpret_cast<T*>(smem_raw);

  const int tid = threadIdx.x;
  T acc = identity;
  for (int i = blockIdx.x * BLOCK + tid; i < n; i += BLOCK * gridDim.x)
    acc = op(acc, in[i]);
  sdata[tid] = acc;
  __syncthreads();

#pragma unroll
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = op(sdata[tid], sdata[tid + s]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

#endif  // CORPUS_REDUCE_OPS_CUH
