// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// CUDA 10's csrmv and csrmm (rocSPARSE takes a matrix info, null here, and the
// operation on B) and gemvi's buffer size (cast).
void legacy(rocsparse_handle handle, int m, int n, int k, int nnz, const float *alpha, rocsparse_mat_descr descr,
            const float *val, const int *row_ptr, const int *col_ind, const float *x, const float *beta, float *y,
            const float *B, int ldb, float *C, int ldc, int *size) {
  rocsparse_scsrmv(handle, rocsparse_operation_none, m, n, nnz, alpha, descr, val, row_ptr, col_ind, nullptr, x, beta,
                 y);
  rocsparse_scsrmm(handle, rocsparse_operation_none, rocsparse_operation_none, m, n, k, nnz, alpha, descr, val, row_ptr, col_ind, B,
                 ldb, beta, C, ldc);
  rocsparse_sgemvi_buffer_size(handle, rocsparse_operation_none, m, n, nnz, reinterpret_cast<size_t*>(size));
}
