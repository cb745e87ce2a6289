// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// ROCm 5.2's rocsparse_spmv takes no stage (rocSPARSE 3.0 of ROCm 6.0 added it): the
// SpMV calls are refused there (H017), while SpMM's stage is older and is rewritten.
void products(rocsparse_handle handle, const float *alpha, rocsparse_spmat_descr A, rocsparse_dnvec_descr x,
              rocsparse_dnmat_descr B, const float *beta, rocsparse_dnvec_descr y, rocsparse_dnmat_descr C,
              size_t *size, void *buffer) {
  cusparseSpMV_bufferSize(handle, rocsparse_operation_none, alpha, A, x, beta, y, rocblas_datatype_f32_r,
                          rocsparse_spmv_alg_default, size);
  cusparseSpMV(handle, rocsparse_operation_none, alpha, A, x, beta, y, rocblas_datatype_f32_r,
               rocsparse_spmv_alg_default, buffer);
  rocsparse_spmm(handle, rocsparse_operation_none, rocsparse_operation_none, alpha, A, B, beta, C,
               rocblas_datatype_f32_r, rocsparse_spmm_alg_default, rocsparse_spmm_stage_compute, nullptr, buffer);
}
