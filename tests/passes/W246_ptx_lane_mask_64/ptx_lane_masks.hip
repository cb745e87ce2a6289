#include <hip/hip_runtime.h>
// Ballot, activemask and lane masks are 64-bit in HIP: reported, never narrowed silently.
__device__ unsigned masks(int pred) {
  unsigned m, lt, b;
  asm volatile("activemask.b32 %0;" : "=r"(m));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
               : "=r"(b) : "r"(pred));
  return m & lt & b;
}
