#include <hip/hip_runtime.h>
// %smid is reported with HIP's __smid(), which packs the CU and SE ids and varies over time.
__global__ void where(unsigned *sm) {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  sm[blockIdx.x] = id;
}
