// cu2hip-options: --roc
#include <cusparse.h>

// Interleaved batched tri- and penta-diagonal solvers: rocSPARSE also takes the batch
// stride, which for cuSPARSE's interleaved layout is the batch count (copied).
void batched(cusparseHandle_t handle, int algo, int m, float *ds, float *dl, float *d, float *du, float *dw,
             float *x, int batch, size_t *size, void *buffer) {
  cusparseSgtsvInterleavedBatch_bufferSizeExt(handle, algo, m, dl, d, du, x, batch, size);
  cusparseSgtsvInterleavedBatch(handle, algo, m, dl, d, du, x, batch, buffer);
  cusparseSgpsvInterleavedBatch_bufferSizeExt(handle, algo, m, ds, dl, d, du, dw, x, batch, size);
  cusparseSgpsvInterleavedBatch(handle, algo, m, ds, dl, d, du, dw, x, batch, buffer);
}
