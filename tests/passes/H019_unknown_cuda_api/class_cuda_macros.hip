#include <hip/hip_runtime.h>

// `CUDA_*`, `CUDART_*` and `__CUDA*`: the toolkit's macros, in `#if` and in code.
// The version tests and the device-pass macro have no HIP name: reported.
#define CUDA_CHECK(call) (call)
#if CUDA_VERSION >= 12000 && defined(__HIPCC__)
#define HAVE_NEW_API 1
#endif

__device__ float turn() {
#if __CUDA_ARCH__ >= 800
  return 2.0f * CUDART_PI_F;
#else
  return CUDART_TWO_PI_GUESS;
#endif
}

void release(float *p) { CUDA_CHECK(hipFree(p)); }
