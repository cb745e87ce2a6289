#include <hip/hip_runtime.h>
// bfe and bfi are rewritten only where the offset and width are literals in the range
// where HIP's builtins (which mask both with 31) agree with PTX (which masks with 255).
__device__ unsigned traps(unsigned w, unsigned v, unsigned pos, unsigned len) {
  unsigned a, b, c, d, e, f, g;
  int s;
  asm("bfe.u32 %0, %1, 0, 32;" : "=r"(a) : "r"(w));
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(b) : "r"(w), "r"(pos), "r"(len));
  asm("bfe.u32 %0, %1, %2, 8;" : "=r"(c) : "r"(w), "r"(pos));
  asm("bfe.u32 %0, %1, 28, 8;" : "=r"(d) : "r"(w));
  asm("bfe.s32 %0, %1, 4, 8;" : "=r"(s) : "r"(w));
  asm("bfi.b32 %0, %1, %2, 0, 32;" : "=r"(e) : "r"(v), "r"(w));
  asm("bfi.b32 %0, %1, %2, 32, 4;" : "=r"(f) : "r"(v), "r"(w));
  asm("bfi.b32 %0, %1, %2, %3, 4;" : "=r"(g) : "r"(v), "r"(w), "r"(pos));
  asm("bfi.b32 %0, %1, %2, 1, 31;" : "=r"(g) : "r"(v), "r"(g));
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ s;
}
