// cu2hip-options: --roc
#include <cusparse.h>

// A call in a #define body is rewritten in the body, and its use renamed through it.
#define ILU0(h, m, nnz, d, v, r, c, i, b) cusparseScsrilu02(h, m, nnz, d, v, r, c, i, CUSPARSE_SOLVE_POLICY_USE_LEVEL, b)

cusparseStatus_t factor(cusparseHandle_t h, int m, int nnz, cusparseMatDescr_t d, float *v, const int *r,
                        const int *c, csrilu02Info_t i, void *b) {
  return ILU0(h, m, nnz, d, v, r, c, i, b);
}
