// cu2hip-options: --roc --rocm-version 6.3

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// The generic API: rocSPARSE's calls take a stage and both a buffer size and a buffer.
void spmv(rocsparse_handle handle, const float *alpha, rocsparse_spmat_descr A, rocsparse_dnvec_descr x,
          const float *beta, rocsparse_dnvec_descr y, size_t *size, void *buffer) {
  rocsparse_spmv(handle, rocsparse_operation_none, alpha, A, x, beta, y, rocblas_datatype_f32_r,
                          rocsparse_spmv_alg_default, rocsparse_spmv_stage_buffer_size, size, nullptr);
  rocsparse_spmv(handle, rocsparse_operation_none, alpha, A, x, beta, y, rocblas_datatype_f32_r,
               rocsparse_spmv_alg_default, rocsparse_spmv_stage_compute, nullptr, buffer);
}

void spmm(rocsparse_handle handle, const float *alpha, rocsparse_spmat_descr A, rocsparse_dnmat_descr B,
          const float *beta, rocsparse_dnmat_descr C, size_t *size, void *buffer) {
  rocsparse_spmm(handle, rocsparse_operation_none, rocsparse_operation_none, alpha, A, B,
                          beta, C, rocblas_datatype_f32_r, rocsparse_spmm_alg_default, rocsparse_spmm_stage_compute, size, nullptr);
  rocsparse_spmm(handle, rocsparse_operation_none, rocsparse_operation_none, alpha, A, B,
                          beta, C, rocblas_datatype_f32_r, rocsparse_spmm_alg_default, rocsparse_spmm_stage_preprocess, nullptr, buffer);
  rocsparse_spmm(handle, rocsparse_operation_none, rocsparse_operation_none, alpha, A, B, beta, C,
               rocblas_datatype_f32_r, rocsparse_spmm_alg_default, rocsparse_spmm_stage_compute, nullptr, buffer);
}

void spvv(rocsparse_handle handle, rocsparse_spvec_descr x, rocsparse_dnvec_descr y, float *result, size_t *size,
          void *buffer) {
  rocsparse_spvv(handle, rocsparse_operation_none, x, y, result, rocblas_datatype_f32_r, size, nullptr);
  rocsparse_spvv(handle, rocsparse_operation_none, x, y, result, rocblas_datatype_f32_r, nullptr, buffer);
}
