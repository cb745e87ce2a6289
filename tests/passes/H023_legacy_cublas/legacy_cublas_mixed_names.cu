// A legacy translation unit: the names cublas.h and cublas_v2.h share are translated
// (the helpers, the types, the _v2 functions), the legacy routines are reported.
#include <cublas.h>

typedef float (*dot_fn)(int, const float *, int, const float *, int);
#define SCALE(n, a, x) cublasDscal(n, a, x, 1)

cublasStatus copy_in(const float *h, float *d, int n, cudaStream_t stream) {
  cublasStatus_t status = cublasSetVectorAsync(n, sizeof(float), h, 1, d, 1, stream);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  return cublasGetMatrix(n, 1, sizeof(float), d, n, (void *)h, n);
}

void mixed(cublasHandle_t handle, double *x, float *a, float *b, int n) {
  const float one = 1.0f;
  cublasCreate_v2(&handle);
  cublasSscal_v2(handle, n, &one, a, 1);
  cublasSgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, a, n, b, n, &one, a, n);
  cublasSetKernelStream(0);
  SCALE(n, 0.5, x);
  dot_fn dot = cublasSdot;
  cublasZdotc(n, 0, 1, 0, 1);
  cublasCrotg(0, make_cuComplex(1, 0), 0, 0);
  cublasSsyrk('U', 'N', n, n, 1.0f, a, n, 0.0f, b, n); // cu2hip: ignore[H023]
  cublasDestroy_v2(handle);
  (void)dot;
}
