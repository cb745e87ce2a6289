// cu2hip-options: --roc

#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>

// Interleaved batched tri- and penta-diagonal solvers: rocSPARSE also takes the batch
// stride, which for cuSPARSE's interleaved layout is the batch count (copied).
void batched(rocsparse_handle handle, int algo, int m, float *ds, float *dl, float *d, float *du, float *dw,
             float *x, int batch, size_t *size, void *buffer) {
  rocsparse_sgtsv_interleaved_batch_buffer_size(handle, algo, m, dl, d, du, x, batch, batch, size);
  rocsparse_sgtsv_interleaved_batch(handle, algo, m, dl, d, du, x, batch, batch, buffer);
  rocsparse_sgpsv_interleaved_batch_buffer_size(handle, algo, m, ds, dl, d, du, dw, x, batch, batch, size);
  rocsparse_sgpsv_interleaved_batch(handle, algo, m, ds, dl, d, du, dw, x, batch, batch, buffer);
}
