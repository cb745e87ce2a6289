// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// Triangular solve of a BSR matrix: buffer size (cast), analysis (policies), solve.
rocsparse_status bsr_solve(rocsparse_handle handle, rocsparse_direction dir, int mb, int nnzb,
                           rocsparse_mat_descr descr, float *val, const int *row_ptr, const int *col_ind,
                           int block_dim, rocsparse_mat_info info, const float *alpha, const float *f, float *x,
                           int *size, void *buffer) {
  rocsparse_sbsrsv_buffer_size(handle, dir, rocsparse_operation_none, mb, nnzb, descr, val, row_ptr,
                             col_ind, block_dim, info, reinterpret_cast<size_t*>(size));
  rocsparse_sbsrsv_analysis(handle, dir, rocsparse_operation_none, mb, nnzb, descr, val, row_ptr, col_ind,
                           block_dim, info, rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buffer);
  return rocsparse_sbsrsv_solve(handle, dir, rocsparse_operation_none, mb, nnzb, alpha, descr, val,
                               row_ptr, col_ind, block_dim, info, f, x, rocsparse_solve_policy_auto, buffer);
}
