// cu2hip-options: --rocm-version 6.3
#include <cusparse.h>

// Without --roc: hipSPARSE's SpSM_solve takes an external buffer that cuSPARSE 12's
// has not (hipify-clang's one rewrite for the hip* wrappers).
void solve(cusparseHandle_t handle, const float *alpha, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B,
           cusparseDnMatDescr_t C, cusparseSpSMDescr_t sm) {
  cusparseSpSM_solve(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C,
                     CUDA_R_32F, CUSPARSE_SPSM_ALG_DEFAULT, sm);
}
