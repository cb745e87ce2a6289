// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// A call in a #define body is rewritten in the body, and its use renamed through it.
#define ILU0(h, m, nnz, d, v, r, c, i, b) rocsparse_scsrilu0(h, m, nnz, d, v, r, c, i, rocsparse_solve_policy_auto, b)

rocsparse_status factor(rocsparse_handle h, int m, int nnz, rocsparse_mat_descr d, float *v, const int *r,
                        const int *c, rocsparse_mat_info i, void *b) {
  return ILU0(h, m, nnz, d, v, r, c, i, b);
}
