// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// C = alpha*A*B + beta*D: rocSPARSE takes the operations on A and B (none, as in
// cuSPARSE's csrgemm2); C = alpha*A + beta*B: rocSPARSE takes no buffer.
void products(rocsparse_handle handle, int m, int n, int k, const float *alpha, rocsparse_mat_descr dA, int nnzA,
              const float *vA, const int *rA, const int *cA, rocsparse_mat_descr dB, int nnzB, const float *vB,
              const int *rB, const int *cB, const float *beta, rocsparse_mat_descr dD, int nnzD, const float *vD,
              const int *rD, const int *cD, rocsparse_mat_descr dC, float *vC, int *rC, int *cC,
              rocsparse_mat_info info, int *nnzC, void *buffer) {
  rocsparse_scsrgemm(handle, rocsparse_operation_none, rocsparse_operation_none, m, n, k, alpha, dA, nnzA, vA, rA, cA, dB, nnzB, vB, rB, cB, beta, dD, nnzD, vD, rD,
                    cD, dC, vC, rC, cC, info, buffer);
  rocsparse_csrgeam_nnz(handle, m, n, dA, nnzA, rA, cA, dB, nnzB, rB, cB, dC, rC, nnzC);
  rocsparse_scsrgeam(handle, m, n, alpha, dA, nnzA, vA, rA, cA, beta, dB, nnzB, vB, rB, cB, dC, vC, rC, cC);
}
