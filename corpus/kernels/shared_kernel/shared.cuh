// The declarations the three translation units of the shared_kernel program share: a
// register-heavy kernel defined once, in scale_kernel.cu (external linkage), and launched
// from all three with different block sizes: 128 (scale_kernel.cu), 256 (main.cu, through
// this declaration) and 384 (launch_wide.cu, a dim3 of a constant). Its bound is the
// largest launch of the whole program, 384 (the CUDA original needs more than the 128
// registers per thread a 512-thread block leaves on an H200, so 384 is its widest launch
// there): a translation that sees only scale_kernel.cu would write __launch_bounds__(128),
// and the 256- and 384-thread launches would fail.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

#define SHARED_LIVE 160       // floats each thread keeps in registers

// One element's work, on the GPU and on the CPU alike.
__host__ __device__ inline float shared_work(const float *in, int i, int passes) {
  float v[SHARED_LIVE];
#pragma unroll
  for (int k = 0; k < SHARED_LIVE; ++k) v[k] = in[i + k];
  for (int p = 0; p < passes; ++p)
#pragma unroll
    for (int k = 0; k < SHARED_LIVE; ++k) v[k] = fmaf(v[k], v[(k + 7) % SHARED_LIVE], 0.125f);
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < SHARED_LIVE; ++k) sum += v[k] * (1.0f + (k & 7) * 0.0625f);
  return sum;
}

__global__ void shared_heavy(const float *in, float *out, int n, int passes);

void launch_128(const float *in, float *out, int n, int passes);   // scale_kernel.cu
void launch_384(const float *in, float *out, int n, int passes);   // launch_wide.cu
