// cu2hip-options: --roc
#include <cusparse.h>

// Block incomplete factorizations: policies replaced, buffer sizes cast.
void bsr_factor(cusparseHandle_t handle, cusparseDirection_t dir, int mb, int nnzb, cusparseMatDescr_t descr,
                double *val, const int *row_ptr, const int *col_ind, int block_dim, bsrilu02Info_t ilu,
                bsric02Info_t ic, int *size, void *buffer) {
  cusparseDbsrilu02_bufferSize(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ilu, size);
  cusparseDbsrilu02_analysis(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ilu,
                             CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  cusparseDbsrilu02(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ilu,
                    CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  cusparseDbsric02_bufferSize(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ic, size);
  cusparseDbsric02_analysis(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ic,
                            CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  cusparseDbsric02(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ic,
                   CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
}
