// cu2hip-options: --roc
#include <hip/hip_runtime.h>
#include <rocblas.h>

rocblas_status gemm_axpy(rocblas_handle h, hipStream_t s, const float* A, const float* B, float* C, int n) {
  const float one = 1.0f, zero = 0.0f;
  rocblas_set_stream(h, s);
  rocblas_status st = rocblas_sgemm(h, rocblas_operation_none, rocblas_operation_transpose, n, n, n, &one, A, n, B, n, &zero, C, n);
  if (st != rocblas_status_success) return st;
  return rocblas_saxpy(h, n * n, &one, A, 1, C, 1);
}

int main() {
  rocblas_handle h;
  rocblas_create_handle(&h);
  rocblas_destroy_handle(h);
  return 0;
}
