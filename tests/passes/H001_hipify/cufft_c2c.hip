#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>

hipfftResult forward(hipfftComplex* d, int n) {
  hipfftHandle plan;
  hipfftResult r = hipfftPlan1d(&plan, n, HIPFFT_C2C, 1);
  if (r != HIPFFT_SUCCESS) return r;
  r = hipfftExecC2C(plan, d, d, HIPFFT_FORWARD);
  hipfftDestroy(plan);
  return r;
}
