#include <hip/hip_runtime.h>
#include <hipblas.h>

hipblasStatus_t gemm_axpy(hipblasHandle_t h, hipStream_t s, const float* A, const float* B, float* C, int n) {
  const float one = 1.0f, zero = 0.0f;
  hipblasSetStream(h, s);
  hipblasStatus_t st = hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_T, n, n, n, &one, A, n, B, n, &zero, C, n);
  if (st != HIPBLAS_STATUS_SUCCESS) return st;
  return hipblasSaxpy(h, n * n, &one, A, 1, C, 1);
}

int main() {
  hipblasHandle_t h;
  hipblasCreate(&h);
  hipblasDestroy(h);
  return 0;
}
