// cu2hip-options: --roc
#include <cusparse.h>

// CSR triangular solve with several right-hand sides: rocSPARSE has no `algo` argument
// (cu2hip drops it, where hipify-clang keeps it) and takes two policies in the analysis.
void csr_solve_many(cusparseHandle_t handle, int algo, int m, int nrhs, int nnz, const float *alpha,
                    cusparseMatDescr_t descr, const float *val, const int *row_ptr, const int *col_ind, float *B,
                    int ldb, csrsm2Info_t info, size_t *size, void *buffer) {
  cusparseScsrsm2_bufferSizeExt(handle, algo, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                m, nrhs, nnz, alpha, descr, val, row_ptr, col_ind, B, ldb, info,
                                CUSPARSE_SOLVE_POLICY_USE_LEVEL, size);
  cusparseScsrsm2_analysis(handle, algo, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, m,
                           nrhs, nnz, alpha, descr, val, row_ptr, col_ind, B, ldb, info,
                           CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  cusparseScsrsm2_solve(handle, algo, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nrhs,
                        nnz, alpha, descr, val, row_ptr, col_ind, B, ldb, info, CUSPARSE_SOLVE_POLICY_USE_LEVEL,
                        buffer);
}
