// The v2 API (cublas_v2.h): the same names as the legacy routines, with a handle.
#include <hip/hip_runtime.h>
#include <hipblas.h>

hipblasStatus_t scale_and_dot(hipblasHandle_t handle, int n, float *x, float *y, float *result) {
  const float two = 2.0f;
  hipblasStatus_t status = hipblasSscal(handle, n, &two, x, 1);
  if (status != HIPBLAS_STATUS_SUCCESS) return status;
  status = hipblasSaxpy(handle, n, &two, x, 1, y, 1);
  if (status != HIPBLAS_STATUS_SUCCESS) return status;
  return hipblasSdot(handle, n, x, 1, y, 1, result);
}

int main() {
  hipblasHandle_t handle;
  hipblasCreate(&handle);
  float *x = 0, *y = 0, r = 0;
  hipMalloc(&x, 4 * sizeof(float));
  hipMalloc(&y, 4 * sizeof(float));
  hipblasSetVector(4, sizeof(float), &r, 0, x, 1);
  scale_and_dot(handle, 4, x, y, &r);
  hipblasDestroy(handle);
  return 0;
}
