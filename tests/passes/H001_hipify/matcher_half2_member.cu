#include <cuda_fp16.h>

// nvcc reads .x and .y of a half2 as __half; HIP declares them unsigned short (the bits).
__global__ void split(const half2* in, half2* out, float* lo, float* hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  half2 v = in[i];
  lo[i] = __half2float(v.x);
  hi[i] = __half2float(v.y);
  out[i].x = v.y;
  out[i].y = v.x;
}

__device__ float first(const half2 c, const __half2* p, half2 m[2][2]) {
  // const bases read through const half&, __half2 through __half&, p->x and (*p).y alike.
  return __half2float(c.x) + __half2float(p->x) + __half2float((*p).y) + __half2float(m[1][0].y);
}

struct Pair { half2 h; };

__device__ float untouched(Pair q, float2 f, const half2* in) {
  // A struct member's type and a float2's members: not a half2 base cu2hip can see.
  float r = __half2float(q.h.x) + f.x;
  // Already cast: left alone.
  r += __half2float(reinterpret_cast<const half&>(in[0].y));
  // A local that shadows a parameter of the same name is what counts.
  { float2 in = make_float2(1.0f, 2.0f); r += in.x; }
  auto twice = [](half2 h) { return __half2float(h.x) * 2.0f; };
  return r + twice(in[0]);
}
