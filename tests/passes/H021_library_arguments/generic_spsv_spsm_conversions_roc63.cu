// cu2hip-options: --roc --rocm-version 6.3
#include <cusparse.h>

// Triangular solves: the stage replaces cuSPARSE's SpSV/SpSM descriptor. Conversions:
// a buffer size or buffer rocSPARSE takes is added, null; csr2csc's buffer size takes
// neither values nor types nor algorithm.
void solves(cusparseHandle_t handle, const float *alpha, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x,
            cusparseDnVecDescr_t y, cusparseDnMatDescr_t B, cusparseDnMatDescr_t C, cusparseSpSVDescr_t sv,
            cusparseSpSMDescr_t sm, size_t *size, void *buffer) {
  cusparseSpSV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, y, CUDA_R_32F,
                          CUSPARSE_SPSV_ALG_DEFAULT, sv, size);
  cusparseSpSM_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C,
                        CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, sm, buffer);
  cusparseSpSM_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C,
                     CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, sm);
}

void conversions(cusparseHandle_t handle, cusparseSpMatDescr_t S, cusparseDnMatDescr_t D, int m, int n, int nnz,
                 const float *csr_val, const int *csr_row, const int *csr_col, float *csc_val, int *csc_col,
                 int *csc_row, size_t *size, void *buffer) {
  cusparseSparseToDense_bufferSize(handle, S, D, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, size);
  cusparseSparseToDense(handle, S, D, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer);
  cusparseDenseToSparse_bufferSize(handle, D, S, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, size);
  cusparseDenseToSparse_analysis(handle, D, S, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer);
  cusparseCsr2cscEx2_bufferSize(handle, m, n, nnz, csr_val, csr_row, csr_col, csc_val, csc_col, csc_row,
                                CUDA_R_32F, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                                CUSPARSE_CSR2CSC_ALG1, size);
}
