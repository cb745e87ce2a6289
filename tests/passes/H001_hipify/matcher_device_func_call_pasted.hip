#include <hip/hip_runtime.h>

// hipify-clang's cudaDeviceFuncCall matcher reports calls of device functions whose
// name no token spells; cu2hip pastes each use of such a macro in the file.
#define ROUNDED(op, a, b) __f##op##_rd(a, b)
#define FAST(fn, x) __##fn##f(x)
#define ERROR_TYPE(suffix) hipError_t##suffix
#define COPY(kind, ...) hipMemcpy##kind(__VA_ARGS__)
#define RD_ADD(a, b) __fadd##_rd(a, b)

__device__ float f(float a, float b) {
  // __fadd_rd and __fmul_rd have no HIP equivalent; __expf is HIP's name too.
  return ROUNDED(add, a, b) + ROUNDED(mul, a, b) + FAST(exp, a) + RD_ADD(a, b);
}

void g(void* dst, const void* src, size_t n, hipStream_t s) {
  // cudaError renamed in the body pastes hipError_t_t: not HIP's hipError_t.
  ERROR_TYPE(_t) e = hipSuccess;
  // cudaMemcpy renamed in the body pastes hipMemcpyAsync and hipMemcpy: right.
  e = COPY(Async, dst, src, n, hipMemcpyDefault, s);
  e = COPY(, dst, src, n, hipMemcpyDefault);
  (void)e;
}
