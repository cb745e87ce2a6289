// cu2hip-options: --roc
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cuda_fp16.h>

cublasStatus_t gemm_axpy(cublasHandle_t h, cudaStream_t s, const float* A, const float* B, float* C, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasSetStream(h, s);
  cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, A, n, B, n, &zero, C, n);
  if (st != CUBLAS_STATUS_SUCCESS) return st;
  return cublasSaxpy(h, n * n, &one, A, 1, C, 1);
}

// rocBLAS's scalar types in host BLAS code (hipify-clang's roc names); a kernel keeps HIP's.
__global__ void scale(__half* x, __half s) { x[threadIdx.x] = __hmul(x[threadIdx.x], s); }

cublasStatus_t caxpy(cublasHandle_t h, int n, const cuComplex* alpha, const cuComplex* x, cuComplex* y) {
  return cublasCaxpy(h, n, alpha, x, 1, y, 1);
}

cublasStatus_t zdotc(cublasHandle_t h, int n, const cuDoubleComplex* x, const cuDoubleComplex* y, cuDoubleComplex* r) {
  return cublasZdotc(h, n, x, 1, y, 1, r);
}

cublasStatus_t hgemm(cublasHandle_t h, int n, const __half* alpha, const __half* A, const __half* beta, __half* C) {
  return cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, A, n, A, n, beta, C, n);
}

int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  cublasDestroy(h);
  return 0;
}
