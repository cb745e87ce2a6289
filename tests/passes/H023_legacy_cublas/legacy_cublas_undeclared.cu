// No cuBLAS header here: the file gets it through a header of its own, so a call is
// legacy where it has a legacy routine's argument count.
#include "blas_wrapper.h"

void legacy(float *x, float *y, int n) {
  cublasInit();
  cublasSaxpy(n, 2.0f, x, 1, y, 1);
  float d = cublasSdot(n, x, 1, y, 1);
  cublasSgemm('N', 'N', n, n, n, 1.0f, x, n, y, n, 0.0f, y, n);
  (void)d;
}

void v2(cublasHandle_t h, float *x, float *y, int n) {
  const float two = 2.0f;
  float d = 0;
  cublasSaxpy(h, n, &two, x, 1, y, 1);
  cublasSdot(h, n, x, 1, y, 1, &d);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &two, x, n, y, n, &two, y, n);
}
