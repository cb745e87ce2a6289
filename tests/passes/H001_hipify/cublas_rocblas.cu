// cu2hip-options: --roc
#include <cuda_runtime.h>
#include <cublas_v2.h>

cublasStatus_t gemm_axpy(cublasHandle_t h, cudaStream_t s, const float* A, const float* B, float* C, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasSetStream(h, s);
  cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, A, n, B, n, &zero, C, n);
  if (st != CUBLAS_STATUS_SUCCESS) return st;
  return cublasSaxpy(h, n * n, &one, A, 1, C, 1);
}

int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  cublasDestroy(h);
  return 0;
}
