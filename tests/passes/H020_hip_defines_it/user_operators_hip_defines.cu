// cu2hip-options: --rocm-version 5.2
#include <cuda_runtime.h>
#include <cuda_fp16.h>

// helper_math.h style: HIP's vector types have these as members (ambiguous under hipcc).
inline __host__ __device__ void operator+=(float4 &a, float4 b) {
  a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w;
}
inline __host__ __device__ void operator*=(float2 &a, const float2 &b) { a.x *= b.x; a.y *= b.y; }
inline __host__ __device__ int3 &operator++(int3 &a) {
  ++a.x; ++a.y; ++a.z;
  return a;
}

// Not defined by HIP as non-templates: HIP's templates lose to these, which stay.
inline __host__ __device__ float4 operator+(float4 a, float4 b) {
  return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
inline __host__ __device__ void operator*=(float4 &a, float s) { a.x *= s; a.y *= s; a.z *= s; a.w *= s; }

// HIP's __half and __half2 have these unless __HIP_NO_HALF_OPERATORS__ is defined.
__device__ half2 operator*(half2 a, half2 b) { return __hmul2(a, b); }
__device__ half2 &operator+=(half2 &a, const half2 &b) {
  a = __hadd2(a, b);
  return a;
}
__device__ bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
__device__ __half operator-(__half a) { return __hneg(a); }

// A class's own operator: not a global one HIP declares.
struct Weight {
  float w;
  __device__ Weight operator+(half2 h) const { return Weight{w + __low2float(h)}; }
};

// A pointer operand: no HIP operator takes one.
__device__ void operator+=(float4 &a, const float4 *b) { a.x += b->x; a.y += b->y; a.z += b->z; a.w += b->w; }

__global__ void k(float4 *v, float2 *w, int3 *c, half2 *h, __half *s) {
  float4 a = v[0] + v[1];
  a += v[2];
  a *= 2.0f;
  a += &v[3];
  v[0] = a + v[4];
  w[0] *= w[1];
  ++c[0];
  h[0] = h[1] * h[2];
  h[0] += h[3];
  s[0] = s[1] < s[2] ? -s[1] : s[2];
  Weight q{1.0f};
  q = q + h[4];
  v[5].x = q.w;
}

void host(float4 *v, int3 *c) {
  v[0] += v[1];
  ++c[0];
}
