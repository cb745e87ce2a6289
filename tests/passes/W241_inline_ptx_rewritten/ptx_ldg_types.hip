// ld.global.nc becomes __ldg(): the pointer as it is where its pointee is the load's type,
// through reinterpret_cast where it is not or is not known.

#include <hip/hip_runtime.h>
#include <cstdint>

__device__ const float *table;

__global__ void loads(const float *__restrict__ x, const int *iv, const void *raw, const unsigned char *bytes,
                      const double *d, const unsigned long long *q, float *out, int i) {
  float a, b, c, e;
  int n;
  unsigned m;
  unsigned short h;
  double f;
  unsigned long long g;
  a = __ldg(x);
  b = __ldg(x + i);
  c = __ldg(&x[i]);
  e = __ldg(reinterpret_cast<const float *>(raw));
  n = __ldg(iv + 1);
  a = __ldg(reinterpret_cast<const float *>(iv));
  m = __ldg(bytes);
  h = __ldg(reinterpret_cast<const unsigned short *>(bytes));
  f = __ldg(d);
  g = __ldg(q);
  b = __ldg(reinterpret_cast<const float *>(table));
  out[i] = a + b + c + e + n + m + h + f + g;
}
