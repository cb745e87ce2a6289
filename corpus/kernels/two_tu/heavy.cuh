// A register-heavy kernel defined in a header and launched from two translation units:
// main.cu launches it with 128 threads per block (a macro), launch_256.cu with 256 (a
// constexpr). Without __launch_bounds__, HIP-Clang compiles it for 1024-thread blocks,
// which caps gfx90a at 128 VGPRs, and its 168 live floats spill; translating the whole
// folder bounds it by its largest launch over both files, __launch_bounds__(256), and it
// does not. The kernel is `static`: each translation unit that includes the header gets
// its own copy, so the two link into one program.
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

#define TWO_TU_LIVE 168       // floats each thread keeps in registers

// One element's work, on the GPU and on the CPU alike: TWO_TU_LIVE values read from
// in[i...], each pass updates every value from one eleven places ahead, then a weighted sum.
__host__ __device__ inline float two_tu_work(const float *in, int i, int passes) {
  float v[TWO_TU_LIVE];
#pragma unroll
  for (int k = 0; k < TWO_TU_LIVE; ++k) v[k] = in[i + k];
  for (int p = 0; p < passes; ++p) {
#pragma unroll
    for (int k = 0; k < TWO_TU_LIVE; ++k) v[k] = fmaf(v[k], v[(k + 11) % TWO_TU_LIVE], 0.25f);
  }
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < TWO_TU_LIVE; ++k) sum += v[k] * (1.0f + (k & 3) * 0.125f);
  return sum;
}

static __global__ void two_tu_heavy(const float *in, float *out, int n, int passes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = two_tu_work(in, i, passes);
}

// The launchers, one in each translation unit.
void launch_128(const float *in, float *out, int n, int passes);   // main.cu
void launch_256(const float *in, float *out, int n, int passes);   // launch_256.cu
