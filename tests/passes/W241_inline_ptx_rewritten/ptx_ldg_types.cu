// ld.global.nc becomes __ldg(): the pointer as it is where its pointee is the load's type,
// through reinterpret_cast where it is not or is not known.
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
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(a) : "l"(x));
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(b) : "l"(x + i));
  asm("ld.global.nc.L1::no_allocate.f32 %0, [%1];" : "=f"(c) : "l"(&x[i]));
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(e) : "l"(raw));
  asm("ld.global.nc.s32 %0, [%1];" : "=r"(n) : "l"(iv + 1));
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(a) : "l"(iv));
  asm("ld.global.nc.u8 %0, [%1];" : "=r"(m) : "l"(bytes));
  asm("ld.global.nc.u16 %0, [%1];" : "=h"(h) : "l"(bytes));
  asm("ld.global.nc.f64 %0, [%1];" : "=d"(f) : "l"(d));
  asm("ld.global.nc.u64 %0, [%1];" : "=l"(g) : "l"(q));
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(b) : "l"(table));
  out[i] = a + b + c + e + n + m + h + f + g;
}
