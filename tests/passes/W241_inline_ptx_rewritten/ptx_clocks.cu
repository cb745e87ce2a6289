// %clock and %clock64 are clock() and clock64(): both count the GPU's cycles.
__global__ void timed(long long *cycles, unsigned *low) {
  long long start, stop;
  unsigned t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(start));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(stop));
  cycles[threadIdx.x] = stop - start;
  low[threadIdx.x] = t;
}
