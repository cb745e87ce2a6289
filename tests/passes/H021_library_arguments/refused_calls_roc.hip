// cu2hip-options: --roc --rocm-version 6.3

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// No rewrite applies: cuSPARSE 11's SpSM_solve with its external buffer (another
// argument count), the address of a call, a call in a parse error, a counterpart that
// needs a value the call has not. Each keeps its CUDA name with H017.
typedef rocsparse_status (*SpMVFn)(rocsparse_handle, rocsparse_operation, const void *, rocsparse_spmat_descr,
                                   rocsparse_dnvec_descr, const void *, rocsparse_dnvec_descr, rocblas_datatype,
                                   rocsparse_spmv_alg, void *);

void refused(rocsparse_handle handle, const float *alpha, rocsparse_spmat_descr A, rocsparse_dnmat_descr B,
             rocsparse_dnmat_descr C, cusparseSpSMDescr_t sm, rocsparse_mat_descr info, int *pivot, void *buffer) {
  cusparseSpSM_solve(handle, rocsparse_operation_none, rocsparse_operation_none, alpha, A, B, C,
                     rocblas_datatype_f32_r, rocsparse_spsm_alg_default, sm, buffer);
  SpMVFn f = &cusparseSpMV;
  cusparseXcsrsv2_zeroPivot(handle, info, pivot);
}

void broken(rocsparse_handle handle, rocsparse_spmat_descr S, rocsparse_dnmat_descr D, void *buffer) {
  cusparseSparseToDense(handle, S, D, rocsparse_sparse_to_dense_alg_default, buffer) +;
}
