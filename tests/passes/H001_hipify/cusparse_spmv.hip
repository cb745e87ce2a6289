#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>

hipsparseStatus_t spmv(hipsparseHandle_t h, hipsparseSpMatDescr_t A, hipsparseDnVecDescr_t x,
                      hipsparseDnVecDescr_t y, void* buffer) {
  const float alpha = 1.0f, beta = 0.0f;
  return hipsparseSpMV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta, y,
                      HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT, buffer);
}

int main() {
  hipsparseHandle_t h;
  if (hipsparseCreate(&h) != HIPSPARSE_STATUS_SUCCESS) return 1;
  hipsparseIndexBase_t base = HIPSPARSE_INDEX_BASE_ZERO;
  hipsparseDestroy(h);
  return base == HIPSPARSE_INDEX_BASE_ZERO ? 0 : 1;
}
