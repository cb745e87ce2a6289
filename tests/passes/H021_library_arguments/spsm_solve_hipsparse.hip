// cu2hip-options: --rocm-version 6.3

#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>

// Without --roc: hipSPARSE's SpSM_solve takes an external buffer that cuSPARSE 12's
// has not (hipify-clang's one rewrite for the hip* wrappers).
void solve(hipsparseHandle_t handle, const float *alpha, hipsparseSpMatDescr_t A, hipsparseDnMatDescr_t B,
           hipsparseDnMatDescr_t C, hipsparseSpSMDescr_t sm) {
  hipsparseSpSM_solve(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, B, C,
                     HIP_R_32F, HIPSPARSE_SPSM_ALG_DEFAULT, sm, nullptr);
}
