// cu2hip-options: --roc
#include <cusparse.h>

// Incomplete Cholesky: hipify-clang rewrites the buffer size (cast) and the analysis
// (policies); csric02 itself takes the same arguments as rocsparse_scsric0.
cusparseStatus_t ic0(cusparseHandle_t handle, int m, int nnz, cusparseMatDescr_t descr, float *val,
                     const int *row_ptr, const int *col_ind, csric02Info_t info, int *size, void *buffer) {
  cusparseScsric02_bufferSize(handle, m, nnz, descr, val, row_ptr, col_ind, info, size);
  cusparseScsric02_analysis(handle, m, nnz, descr, val, row_ptr, col_ind, info,
                            CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  return cusparseScsric02(handle, m, nnz, descr, val, row_ptr, col_ind, info, CUSPARSE_SOLVE_POLICY_USE_LEVEL,
                          buffer);
}
