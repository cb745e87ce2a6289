// cu2hip-options: --only warp-size
// Left alone: asm in host code, PTX text in a string, GCN assembly, an empty template (a
// compiler barrier, valid for AMD), and PTX under an #if that chooses per platform.
#include <cstdint>

const char *kDoc = "asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l))";

uint64_t host_cycles() {
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return (uint64_t(hi) << 32) | lo;
}

__device__ unsigned portable_lane(unsigned *p) {
  unsigned l;
#if defined(__HIP_PLATFORM_AMD__)
  asm volatile("v_mbcnt_lo_u32_b32 %0, -1, 0" : "=v"(l));
#else
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
#endif
  asm volatile("s_waitcnt vmcnt(0) lgkmcnt(0)" ::: "memory");
  asm volatile("" ::: "memory");
  return l + *p;
}
