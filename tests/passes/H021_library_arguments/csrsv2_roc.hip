// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// CSR triangular solve (CUDA 11's API): buffer size (cast), analysis (policies), solve.
rocsparse_status csr_solve(rocsparse_handle handle, int m, int nnz, rocsparse_mat_descr descr, float *val,
                           const int *row_ptr, const int *col_ind, rocsparse_mat_descr info, const float *alpha,
                           const float *f, float *x, int *size, void *buffer) {
  rocsparse_scsrsv_buffer_size(handle, rocsparse_operation_none, m, nnz, descr, val, row_ptr, col_ind,
                             info, reinterpret_cast<size_t*>(size));
  rocsparse_scsrsv_analysis(handle, rocsparse_operation_none, m, nnz, descr, val, row_ptr, col_ind, info,
                           rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buffer);
  return rocsparse_scsrsv_solve(handle, rocsparse_operation_none, m, nnz, alpha, descr, val, row_ptr,
                               col_ind, info, f, x, rocsparse_solve_policy_auto, buffer);
}
