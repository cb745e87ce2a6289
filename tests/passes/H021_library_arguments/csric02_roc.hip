// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// Incomplete Cholesky: hipify-clang rewrites the buffer size (cast) and the analysis
// (policies); csric02 itself takes the same arguments as rocsparse_scsric0.
rocsparse_status ic0(rocsparse_handle handle, int m, int nnz, rocsparse_mat_descr descr, float *val,
                     const int *row_ptr, const int *col_ind, rocsparse_mat_info info, int *size, void *buffer) {
  rocsparse_scsric0_buffer_size(handle, m, nnz, descr, val, row_ptr, col_ind, info, reinterpret_cast<size_t*>(size));
  rocsparse_scsric0_analysis(handle, m, nnz, descr, val, row_ptr, col_ind, info,
                            rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buffer);
  return rocsparse_scsric0(handle, m, nnz, descr, val, row_ptr, col_ind, info, rocsparse_solve_policy_auto,
                          buffer);
}
