// The v2 API (cublas_v2.h): the same names as the legacy routines, with a handle.
#include <cuda_runtime.h>
#include <cublas_v2.h>

cublasStatus_t scale_and_dot(cublasHandle_t handle, int n, float *x, float *y, float *result) {
  const float two = 2.0f;
  cublasStatus_t status = cublasSscal(handle, n, &two, x, 1);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  status = cublasSaxpy(handle, n, &two, x, 1, y, 1);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  return cublasSdot(handle, n, x, 1, y, 1, result);
}

int main() {
  cublasHandle_t handle;
  cublasCreate(&handle);
  float *x = 0, *y = 0, r = 0;
  cudaMalloc(&x, 4 * sizeof(float));
  cudaMalloc(&y, 4 * sizeof(float));
  cublasSetVector(4, sizeof(float), &r, 0, x, 1);
  scale_and_dot(handle, 4, x, y, &r);
  cublasDestroy(handle);
  return 0;
}
