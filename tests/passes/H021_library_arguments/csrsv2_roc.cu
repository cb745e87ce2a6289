// cu2hip-options: --roc
#include <cusparse.h>

// CSR triangular solve (CUDA 11's API): buffer size (cast), analysis (policies), solve.
cusparseStatus_t csr_solve(cusparseHandle_t handle, int m, int nnz, cusparseMatDescr_t descr, float *val,
                           const int *row_ptr, const int *col_ind, csrsv2Info_t info, const float *alpha,
                           const float *f, float *x, int *size, void *buffer) {
  cusparseScsrsv2_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nnz, descr, val, row_ptr, col_ind,
                             info, size);
  cusparseScsrsv2_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nnz, descr, val, row_ptr, col_ind, info,
                           CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  return cusparseScsrsv2_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nnz, alpha, descr, val, row_ptr,
                               col_ind, info, f, x, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
}
