// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// ILU(0) of a CSR matrix: buffer size through an int (cast, H022), analysis with the
// level policy (rocSPARSE takes an analysis and a solve policy), factorization.
rocsparse_status ilu0(rocsparse_handle handle, int m, int nnz, rocsparse_mat_descr descr, float *val,
                      const int *row_ptr, const int *col_ind, rocsparse_mat_info info, void **buffer) {
  int size = 0;
  rocsparse_status st = rocsparse_scsrilu0_buffer_size(handle, m, nnz, descr, val, row_ptr, col_ind, info, reinterpret_cast<size_t*>(&size));
  if (st != rocsparse_status_success) return st;
  st = rocsparse_scsrilu0_analysis(handle, m, nnz, descr, val, row_ptr, col_ind, info,
                                  rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, *buffer);
  if (st != rocsparse_status_success) return st;
  return rocsparse_scsrilu0(handle, m, nnz, descr, val, row_ptr, col_ind, info,
                           rocsparse_solve_policy_auto, *buffer);
}

// The double precision and its Ext buffer size (already size_t: no cast).
rocsparse_status ilu0d(rocsparse_handle handle, int m, int nnz, rocsparse_mat_descr descr, double *val,
                       const int *row_ptr, const int *col_ind, rocsparse_mat_info info, size_t *size, void *buffer) {
  rocsparse_dcsrilu0_buffer_size(handle, m, nnz, descr, val, row_ptr, col_ind, info, size);
  rocsparse_dcsrilu0_analysis(handle, m, nnz, descr, val, row_ptr, col_ind, info, rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buffer);
  return rocsparse_dcsrilu0(handle, m, nnz, descr, val, row_ptr, col_ind, info, rocsparse_solve_policy_auto, buffer);
}
