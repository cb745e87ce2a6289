// cu2hip-options: --roc
#include <cublas.h>

int main() {
  float h[4] = {1, 2, 3, 4}, *d = 0;
  cublasInit();
  cublasAlloc(4, sizeof(float), (void **)&d);
  cublasStatus s = cublasSetVector(4, sizeof(float), h, 1, d, 1);
  cublasSscal(4, 2.0f, d, 1);
  s = cublasGetVector(4, sizeof(float), d, 1, h, 1);
  cublasFree(d);
  cublasShutdown();
  return s == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
