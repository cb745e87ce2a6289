// cu2hip-options: --roc
#include <cusparse.h>

// CUDA 10's csrmv and csrmm (rocSPARSE takes a matrix info, null here, and the
// operation on B) and gemvi's buffer size (cast).
void legacy(cusparseHandle_t handle, int m, int n, int k, int nnz, const float *alpha, cusparseMatDescr_t descr,
            const float *val, const int *row_ptr, const int *col_ind, const float *x, const float *beta, float *y,
            const float *B, int ldb, float *C, int ldc, int *size) {
  cusparseScsrmv(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, nnz, alpha, descr, val, row_ptr, col_ind, x, beta,
                 y);
  cusparseScsrmm(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, k, nnz, alpha, descr, val, row_ptr, col_ind, B,
                 ldb, beta, C, ldc);
  cusparseSgemvi_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, m, n, nnz, size);
}
