// cu2hip-options: --roc --rocm-version 6.3

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// Triangular solves: the stage replaces cuSPARSE's SpSV/SpSM descriptor. Conversions:
// a buffer size or buffer rocSPARSE takes is added, null; csr2csc's buffer size takes
// neither values nor types nor algorithm.
void solves(rocsparse_handle handle, const float *alpha, rocsparse_spmat_descr A, rocsparse_dnvec_descr x,
            rocsparse_dnvec_descr y, rocsparse_dnmat_descr B, rocsparse_dnmat_descr C, cusparseSpSVDescr_t sv,
            cusparseSpSMDescr_t sm, size_t *size, void *buffer) {
  rocsparse_spsv(handle, rocsparse_operation_none, alpha, A, x, y, rocblas_datatype_f32_r,
                          rocsparse_spsv_alg_default, rocsparse_spsv_stage_buffer_size, size, nullptr);
  rocsparse_spsm(handle, rocsparse_operation_none, rocsparse_operation_none, alpha, A, B, C,
                        rocblas_datatype_f32_r, rocsparse_spsm_alg_default, rocsparse_spsm_stage_compute, nullptr, buffer);
  rocsparse_spsm(handle, rocsparse_operation_none, rocsparse_operation_none, alpha, A, B, C,
                     rocblas_datatype_f32_r, rocsparse_spsm_alg_default, rocsparse_spsm_stage_compute, nullptr, nullptr);
}

void conversions(rocsparse_handle handle, rocsparse_spmat_descr S, rocsparse_dnmat_descr D, int m, int n, int nnz,
                 const float *csr_val, const int *csr_row, const int *csr_col, float *csc_val, int *csc_col,
                 int *csc_row, size_t *size, void *buffer) {
  rocsparse_sparse_to_dense(handle, S, D, rocsparse_sparse_to_dense_alg_default, size, nullptr);
  rocsparse_sparse_to_dense(handle, S, D, rocsparse_sparse_to_dense_alg_default, nullptr, buffer);
  rocsparse_dense_to_sparse(handle, D, S, rocsparse_dense_to_sparse_alg_default, size, nullptr);
  rocsparse_dense_to_sparse(handle, D, S, rocsparse_dense_to_sparse_alg_default, nullptr, buffer);
  rocsparse_csr2csc_buffer_size(handle, m, n, nnz, csr_row, csr_col, rocsparse_action_numeric, size);
}
