// %globaltimer counts nanoseconds; wall_clock64() counts at hipDeviceAttributeWallClockRate.
__global__ void stamp(unsigned long long *ns) {
  unsigned long long t, lo;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));
  ns[threadIdx.x] = t + lo;
}
