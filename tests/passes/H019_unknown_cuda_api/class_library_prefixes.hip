
#include <hip/hip_runtime.h>
#include <hipblas.h>
#include <hipsparse/hipsparse.h>

// The libraries' prefixes: upper case for constants, lower case for functions.
bool ok(hipblasStatus_t b, hipsparseStatus_t s) {
  return b == HIPBLAS_STATUS_SUCCESS && s == HIPSPARSE_STATUS_SUCCESS
      && b != CUBLAS_STATUS_FROBNICATED && s != CUSPARSE_STATUS_FROBNICATED;
}

void calls(hipblasHandle_t h) {
  cublasFrobnicate(h);
  cusparseFrobnicate();
  curandFrobnicate(); cufftFrobnicate(); cusolverDnFrobnicate(); cudnnFrobnicate(); nvrtcFrobnicate();
  int flags = CURAND_FROB | CUFFT_FROB | CUSOLVER_FROB | CUDNN_FROB | NVRTC_FROB;
}
