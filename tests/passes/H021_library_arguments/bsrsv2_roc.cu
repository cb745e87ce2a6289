// cu2hip-options: --roc
#include <cusparse.h>

// Triangular solve of a BSR matrix: buffer size (cast), analysis (policies), solve.
cusparseStatus_t bsr_solve(cusparseHandle_t handle, cusparseDirection_t dir, int mb, int nnzb,
                           cusparseMatDescr_t descr, float *val, const int *row_ptr, const int *col_ind,
                           int block_dim, bsrsv2Info_t info, const float *alpha, const float *f, float *x,
                           int *size, void *buffer) {
  cusparseSbsrsv2_bufferSize(handle, dir, CUSPARSE_OPERATION_NON_TRANSPOSE, mb, nnzb, descr, val, row_ptr,
                             col_ind, block_dim, info, size);
  cusparseSbsrsv2_analysis(handle, dir, CUSPARSE_OPERATION_NON_TRANSPOSE, mb, nnzb, descr, val, row_ptr, col_ind,
                           block_dim, info, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  return cusparseSbsrsv2_solve(handle, dir, CUSPARSE_OPERATION_NON_TRANSPOSE, mb, nnzb, alpha, descr, val,
                               row_ptr, col_ind, block_dim, info, f, x, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
}
