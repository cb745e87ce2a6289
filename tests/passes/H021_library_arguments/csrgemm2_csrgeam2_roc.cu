// cu2hip-options: --roc
#include <cusparse.h>

// C = alpha*A*B + beta*D: rocSPARSE takes the operations on A and B (none, as in
// cuSPARSE's csrgemm2); C = alpha*A + beta*B: rocSPARSE takes no buffer.
void products(cusparseHandle_t handle, int m, int n, int k, const float *alpha, cusparseMatDescr_t dA, int nnzA,
              const float *vA, const int *rA, const int *cA, cusparseMatDescr_t dB, int nnzB, const float *vB,
              const int *rB, const int *cB, const float *beta, cusparseMatDescr_t dD, int nnzD, const float *vD,
              const int *rD, const int *cD, cusparseMatDescr_t dC, float *vC, int *rC, int *cC,
              csrgemm2Info_t info, int *nnzC, void *buffer) {
  cusparseScsrgemm2(handle, m, n, k, alpha, dA, nnzA, vA, rA, cA, dB, nnzB, vB, rB, cB, beta, dD, nnzD, vD, rD,
                    cD, dC, vC, rC, cC, info, buffer);
  cusparseXcsrgeam2Nnz(handle, m, n, dA, nnzA, rA, cA, dB, nnzB, rB, cB, dC, rC, nnzC, buffer);
  cusparseScsrgeam2(handle, m, n, alpha, dA, nnzA, vA, rA, cA, beta, dB, nnzB, vB, rB, cB, dC, vC, rC, cC,
                    buffer);
}
