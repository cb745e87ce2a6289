// cu2hip-options: --roc --rocm-version 6.3
#include <cusparse.h>

// No rewrite applies: cuSPARSE 11's SpSM_solve with its external buffer (another
// argument count), the address of a call, a call in a parse error, a counterpart that
// needs a value the call has not. Each keeps its CUDA name with H017.
typedef cusparseStatus_t (*SpMVFn)(cusparseHandle_t, cusparseOperation_t, const void *, cusparseSpMatDescr_t,
                                   cusparseDnVecDescr_t, const void *, cusparseDnVecDescr_t, cudaDataType,
                                   cusparseSpMVAlg_t, void *);

void refused(cusparseHandle_t handle, const float *alpha, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B,
             cusparseDnMatDescr_t C, cusparseSpSMDescr_t sm, csrsv2Info_t info, int *pivot, void *buffer) {
  cusparseSpSM_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C,
                     CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, sm, buffer);
  SpMVFn f = &cusparseSpMV;
  cusparseXcsrsv2_zeroPivot(handle, info, pivot);
}

void broken(cusparseHandle_t handle, cusparseSpMatDescr_t S, cusparseDnMatDescr_t D, void *buffer) {
  cusparseSparseToDense(handle, S, D, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer) +;
}
