// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocblas/rocblas.h>

int main() {
  float h[4] = {1, 2, 3, 4}, *d = 0;
  cublasInit();
  cublasAlloc(4, sizeof(float), (void **)&d);
  rocblas_status s = rocblas_set_vector(4, sizeof(float), h, 1, d, 1);
  cublasSscal(4, 2.0f, d, 1);
  s = rocblas_get_vector(4, sizeof(float), d, 1, h, 1);
  cublasFree(d);
  cublasShutdown();
  return s == rocblas_status_success ? 0 : 1;
}
