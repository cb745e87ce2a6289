// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// Block incomplete factorizations: policies replaced, buffer sizes cast.
void bsr_factor(rocsparse_handle handle, rocsparse_direction dir, int mb, int nnzb, rocsparse_mat_descr descr,
                double *val, const int *row_ptr, const int *col_ind, int block_dim, rocsparse_mat_info ilu,
                rocsparse_mat_info ic, int *size, void *buffer) {
  rocsparse_dbsrilu0_buffer_size(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ilu, reinterpret_cast<size_t*>(size));
  rocsparse_dbsrilu0_analysis(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ilu,
                             rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buffer);
  rocsparse_dbsrilu0(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ilu,
                    rocsparse_solve_policy_auto, buffer);
  rocsparse_dbsric0_buffer_size(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ic, reinterpret_cast<size_t*>(size));
  rocsparse_dbsric0_analysis(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ic,
                            rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buffer);
  rocsparse_dbsric0(handle, dir, mb, nnzb, descr, val, row_ptr, col_ind, block_dim, ic,
                   rocsparse_solve_policy_auto, buffer);
}
