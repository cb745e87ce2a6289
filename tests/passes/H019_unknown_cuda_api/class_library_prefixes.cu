#include <cublas_v2.h>
#include <cusparse.h>

// The libraries' prefixes: upper case for constants, lower case for functions.
bool ok(cublasStatus_t b, cusparseStatus_t s) {
  return b == CUBLAS_STATUS_SUCCESS && s == CUSPARSE_STATUS_SUCCESS
      && b != CUBLAS_STATUS_FROBNICATED && s != CUSPARSE_STATUS_FROBNICATED;
}

void calls(cublasHandle_t h) {
  cublasFrobnicate(h);
  cusparseFrobnicate();
  curandFrobnicate(); cufftFrobnicate(); cusolverDnFrobnicate(); cudnnFrobnicate(); nvrtcFrobnicate();
  int flags = CURAND_FROB | CUFFT_FROB | CUSOLVER_FROB | CUDNN_FROB | NVRTC_FROB;
}
