// cu2hip-options: --roc
#include <hip/hip_runtime.h>
#include <rocblas/rocblas.h>
#include <hip/hip_complex.h>
#include <hip/hip_fp16.h>

rocblas_status gemm_axpy(rocblas_handle h, hipStream_t s, const float* A, const float* B, float* C, int n) {
  const float one = 1.0f, zero = 0.0f;
  rocblas_set_stream(h, s);
  rocblas_status st = rocblas_sgemm(h, rocblas_operation_none, rocblas_operation_transpose, n, n, n, &one, A, n, B, n, &zero, C, n);
  if (st != rocblas_status_success) return st;
  return rocblas_saxpy(h, n * n, &one, A, 1, C, 1);
}

// rocBLAS's scalar types in host BLAS code (hipify-clang's roc names); a kernel keeps HIP's.
__global__ void scale(__half* x, __half s) { x[threadIdx.x] = __hmul(x[threadIdx.x], s); }

rocblas_status caxpy(rocblas_handle h, int n, const rocblas_float_complex* alpha, const rocblas_float_complex* x, rocblas_float_complex* y) {
  return rocblas_caxpy(h, n, alpha, x, 1, y, 1);
}

rocblas_status zdotc(rocblas_handle h, int n, const rocblas_double_complex* x, const rocblas_double_complex* y, rocblas_double_complex* r) {
  return rocblas_zdotc(h, n, x, 1, y, 1, r);
}

rocblas_status hgemm(rocblas_handle h, int n, const rocblas_half* alpha, const rocblas_half* A, const rocblas_half* beta, rocblas_half* C) {
  return rocblas_hgemm(h, rocblas_operation_none, rocblas_operation_none, n, n, n, alpha, A, n, A, n, beta, C, n);
}

int main() {
  rocblas_handle h;
  rocblas_create_handle(&h);
  rocblas_destroy_handle(h);
  return 0;
}
