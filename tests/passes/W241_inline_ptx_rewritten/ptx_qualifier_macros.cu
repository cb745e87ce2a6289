// cu2hip-options: --only warp-size
// A function whose specifiers hold a qualifier macro defined elsewhere may be device code:
// its asm is translated when it is recognisably PTX, and left alone when it is not (x86).
// A macro of the file that says __device__ makes its functions device code.
#include "qualifiers.h"
#define LOCAL_DEVICE __device__ __forceinline__

MY_DEVICE_INLINE unsigned lane() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

template <typename T>
LIB_HOST_DEVICE static T lane_as() {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return T(l);
}

LOCAL_DEVICE unsigned long long stamp() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  return t;
}

MY_HOST_INLINE unsigned long long host_cycles() {
  unsigned lo, hi;
  asm volatile("rdtsc\n\tmovl %%eax, %0" : "=r"(lo), "=d"(hi) :: "eax");
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}

// A plain host function is never compiled for the device: left alone, whatever it holds.
unsigned host_only() {
  unsigned l = 0;
#ifdef __CUDA_ARCH__
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
#endif
  return l;
}
