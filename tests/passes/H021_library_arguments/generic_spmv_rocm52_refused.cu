// cu2hip-options: --roc
#include <cusparse.h>

// ROCm 5.2's rocsparse_spmv takes no stage (rocSPARSE 3.0 of ROCm 6.0 added it): the
// SpMV calls are refused there (H017), while SpMM's stage is older and is rewritten.
void products(cusparseHandle_t handle, const float *alpha, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
              cusparseDnMatDescr_t B, const float *beta, cusparseDnVecDescr_t y, cusparseDnMatDescr_t C,
              size_t *size, void *buffer) {
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, beta, y, CUDA_R_32F,
                          CUSPARSE_SPMV_ALG_DEFAULT, size);
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, beta, y, CUDA_R_32F,
               CUSPARSE_SPMV_ALG_DEFAULT, buffer);
  cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, beta, C,
               CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer);
}
