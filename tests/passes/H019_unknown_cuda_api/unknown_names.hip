// cu2hip-options: --rocm-version 6.2
#include <hip/hip_runtime.h>
#define CUDA_CHECK(call) call
typedef int cudaCounter_t;
struct cudaOwnThing { int cudaField; };
static int cudaHelper(int x) { return x; }

#if CUDA_VERSION >= 11000
__global__ void k(int *p) {
  int arch = __CUDA_ARCH__;
  p[0] = atomicAdd_block(p, 1) + arch;
}
#endif

void f(cudaOwnThing t) {
  cudaCounter_t n = cudaHelper(t.cudaField);
  CUDA_CHECK(hipMalloc((void **)&n, 4));
  cudaFrobnicate(n);                 // no such API
  const char *s = "cudaNotCode";     // cudaNotCodeEither
  CUDA_CHECK(cudaProfilerFlush());   // cu2hip: ignore[H019]
}
