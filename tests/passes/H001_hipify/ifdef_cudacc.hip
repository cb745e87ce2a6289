#include <hip/hip_runtime.h>

#ifdef __HIPCC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

#if defined(__HIPCC__) && !defined(NO_FAST_MATH)
HOST_DEVICE inline float clampf(float x) { return fminf(fmaxf(x, 0.0f), 1.0f); }
#endif
