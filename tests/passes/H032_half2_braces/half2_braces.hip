// cu2hip-options: --ignore L
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

// A braced list assigned to a half2 is ambiguous in HIP: the type is written before it.
typedef __half2 pair_t;

struct Accumulators {
  half2 sum;
  __half2 parts[2];
};

__global__ void accumulate(const half2* in, half2* out, __half lo, __half hi, int n) {
  half2 acc;
  acc = half2{};
  __half2 total;
  total = __half2{0};
  pair_t alias;
  alias = __half2{ };
  Accumulators a;
  a.sum = half2{};
  a.parts[1] = __half2{0};
  Accumulators* p = &a;
  p->parts[0] = __half2{};
  out[n] = half2{};
  half2 both;
  both = half2{lo, hi};
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc = __hadd2(acc, in[i]);
  out[threadIdx.x] = __hadd2(__hadd2(acc, total), __hadd2(alias, __hadd2(a.sum, __hadd2(a.parts[1], both))));
}

// Not a pair: left as it is.
struct Plain { int x, y; };
__device__ int plain() { Plain q; q = {}; int r[2] = {0, 1}; return q.x + r[1]; }
