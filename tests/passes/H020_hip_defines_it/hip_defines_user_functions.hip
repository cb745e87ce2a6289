// cu2hip-options: --rocm-version 5.2
#include <hip/hip_runtime.h>

// CUDA has no float atomicMax: programs define it with atomicCAS.
#ifndef __HIP__
__device__ static float atomicMax(float *address, float val) {
  int *as_int = (int *)address;
  int old = *as_int, assumed;
  do {
    assumed = old;
    old = atomicCAS(as_int, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}
#endif

#ifndef __HIP__
__device__ inline unsigned int __ffsll(unsigned long long int x) { return __ffsll((long long)x); }
#endif

// Not one HIP defines (int): left alone.
__device__ int atomicMax2(int *a, int v) { return atomicMax(a, v); }

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
#else
#ifndef __HIP__
__device__ double atomicAdd(double *address, double val) {
  return val;
}
#endif
#endif

__global__ void k(float *m, const float *x) { atomicMax(m, x[threadIdx.x]); }
