#include <cuda_runtime.h>
#include <cusparse.h>

cusparseStatus_t spmv(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
                      cusparseDnVecDescr_t y, void* buffer) {
  const float alpha = 1.0f, beta = 0.0f;
  return cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta, y,
                      CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
}

int main() {
  cusparseHandle_t h;
  if (cusparseCreate(&h) != CUSPARSE_STATUS_SUCCESS) return 1;
  cusparseIndexBase_t base = CUSPARSE_INDEX_BASE_ZERO;
  cusparseDestroy(h);
  return base == CUSPARSE_INDEX_BASE_ZERO ? 0 : 1;
}
