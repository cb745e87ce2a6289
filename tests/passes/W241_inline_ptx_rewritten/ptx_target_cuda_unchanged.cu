// cu2hip-options: --target cuda --only warp-size
// PTX is native on NVIDIA: nothing is rewritten or reported.
__device__ unsigned lane() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(l));
  return l;
}
