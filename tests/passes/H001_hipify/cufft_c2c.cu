#include <cuda_runtime.h>
#include <cufft.h>

cufftResult forward(cufftComplex* d, int n) {
  cufftHandle plan;
  cufftResult r = cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  if (r != CUFFT_SUCCESS) return r;
  r = cufftExecC2C(plan, d, d, CUFFT_FORWARD);
  cufftDestroy(plan);
  return r;
}
