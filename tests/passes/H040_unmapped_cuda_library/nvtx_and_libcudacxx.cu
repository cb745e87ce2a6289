// cu2hip-options: --rocm-version 5.2
#include <nvtx3/nvToolsExt.h>
#include <cuda/pipeline>

__global__ void copy(const int *in, int *out) {
  __shared__ int tile[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cuda::memcpy_async(tile, in, sizeof(tile), bar);
  out[threadIdx.x] = tile[threadIdx.x];
}

void run(const int *in, int *out) {
  nvtxRangePushA("copy");
  copy<<<1, 64>>>(in, out);
  nvtxRangePop();
}
