// cu2hip-options: --roc
#include <cusparse.h>

// ILU(0) of a CSR matrix: buffer size through an int (cast, H022), analysis with the
// level policy (rocSPARSE takes an analysis and a solve policy), factorization.
cusparseStatus_t ilu0(cusparseHandle_t handle, int m, int nnz, cusparseMatDescr_t descr, float *val,
                      const int *row_ptr, const int *col_ind, csrilu02Info_t info, void **buffer) {
  int size = 0;
  cusparseStatus_t st = cusparseScsrilu02_bufferSize(handle, m, nnz, descr, val, row_ptr, col_ind, info, &size);
  if (st != CUSPARSE_STATUS_SUCCESS) return st;
  st = cusparseScsrilu02_analysis(handle, m, nnz, descr, val, row_ptr, col_ind, info,
                                  CUSPARSE_SOLVE_POLICY_USE_LEVEL, *buffer);
  if (st != CUSPARSE_STATUS_SUCCESS) return st;
  return cusparseScsrilu02(handle, m, nnz, descr, val, row_ptr, col_ind, info,
                           CUSPARSE_SOLVE_POLICY_NO_LEVEL, *buffer);
}

// The double precision and its Ext buffer size (already size_t: no cast).
cusparseStatus_t ilu0d(cusparseHandle_t handle, int m, int nnz, cusparseMatDescr_t descr, double *val,
                       const int *row_ptr, const int *col_ind, csrilu02Info_t info, size_t *size, void *buffer) {
  cusparseDcsrilu02_bufferSizeExt(handle, m, nnz, descr, val, row_ptr, col_ind, info, size);
  cusparseDcsrilu02_analysis(handle, m, nnz, descr, val, row_ptr, col_ind, info, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  return cusparseDcsrilu02(handle, m, nnz, descr, val, row_ptr, col_ind, info, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
}
