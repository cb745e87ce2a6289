// cu2hip-options: --roc --rocm-version 6.3
#include <cusparse.h>

// The generic API: rocSPARSE's calls take a stage and both a buffer size and a buffer.
void spmv(cusparseHandle_t handle, const float *alpha, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
          const float *beta, cusparseDnVecDescr_t y, size_t *size, void *buffer) {
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, beta, y, CUDA_R_32F,
                          CUSPARSE_SPMV_ALG_DEFAULT, size);
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, beta, y, CUDA_R_32F,
               CUSPARSE_SPMV_ALG_DEFAULT, buffer);
}

void spmm(cusparseHandle_t handle, const float *alpha, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B,
          const float *beta, cusparseDnMatDescr_t C, size_t *size, void *buffer) {
  cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B,
                          beta, C, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, size);
  cusparseSpMM_preprocess(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B,
                          beta, C, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
  cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, beta, C,
               CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
}

void spvv(cusparseHandle_t handle, cusparseSpVecDescr_t x, cusparseDnVecDescr_t y, float *result, size_t *size,
          void *buffer) {
  cusparseSpVV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, x, y, result, CUDA_R_32F, size);
  cusparseSpVV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, x, y, result, CUDA_R_32F, buffer);
}
