// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// CSR triangular solve with several right-hand sides: rocSPARSE has no `algo` argument
// (cu2hip drops it, where hipify-clang keeps it) and takes two policies in the analysis.
void csr_solve_many(rocsparse_handle handle, int algo, int m, int nrhs, int nnz, const float *alpha,
                    rocsparse_mat_descr descr, const float *val, const int *row_ptr, const int *col_ind, float *B,
                    int ldb, rocsparse_mat_info info, size_t *size, void *buffer) {
  rocsparse_scsrsm_buffer_size(handle, rocsparse_operation_none, rocsparse_operation_none,
                                m, nrhs, nnz, alpha, descr, val, row_ptr, col_ind, B, ldb, info,
                                rocsparse_solve_policy_auto, size);
  rocsparse_scsrsm_analysis(handle, rocsparse_operation_none, rocsparse_operation_none, m,
                           nrhs, nnz, alpha, descr, val, row_ptr, col_ind, B, ldb, info,
                           rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buffer);
  rocsparse_scsrsm_solve(handle, rocsparse_operation_none, rocsparse_operation_none, m, nrhs,
                        nnz, alpha, descr, val, row_ptr, col_ind, B, ldb, info, rocsparse_solve_policy_auto,
                        buffer);
}
