#include <hip/hip_runtime.h>
// prmt is rewritten in the default mode with a literal selector whose nibbles have no
// sign-replicate bit; a mode, a sign bit or a selector known only at run time is reported.
__device__ unsigned traps(unsigned a, unsigned b, unsigned sel) {
  unsigned r, s, t, u;
  asm("prmt.b32.f4e %0, %1, %2, 1;" : "=r"(r) : "r"(a), "r"(b));
  asm("prmt.b32 %0, %1, %2, 0x8210;" : "=r"(s) : "r"(a), "r"(b));
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(t) : "r"(a), "r"(b), "r"(sel));
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(u) : "r"(a), "r"(b), "r"(sel));
  return r ^ s ^ t ^ u;
}
