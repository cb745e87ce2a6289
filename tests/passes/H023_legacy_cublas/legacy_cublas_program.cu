// A complete program written against cuBLAS's legacy API (cublas.h).
#include <cuda_runtime.h>
#include <cublas.h>
#include <cstdio>

static int check(const char *what) {
  cublasStatus status = cublasGetError();
  if (status != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "%s failed: %d\n", what, (int)status);
    return 1;
  }
  return 0;
}

int main() {
  const int n = 4;
  float hx[n] = {1, 2, 3, 4}, hy[n] = {4, 3, 2, 1}, ha[n * n] = {0};
  float *dx = 0, *dy = 0, *da = 0;
  if (cublasInit() != CUBLAS_STATUS_SUCCESS) return 1;
  cublasAlloc(n, sizeof(float), (void **)&dx);
  cublasAlloc(n, sizeof(float), (void **)&dy);
  cublasAlloc(n * n, sizeof(float), (void **)&da);
  cublasSetVector(n, sizeof(float), hx, 1, dx, 1);
  cublasSetVector(n, sizeof(float), hy, 1, dy, 1);
  cublasSetMatrix(n, n, sizeof(float), ha, n, da, n);
  cublasSscal(n, 2.0f, dx, 1);
  cublasSaxpy(n, -1.0f, dx, 1, dy, 1);
  float dot = cublasSdot(n, dx, 1, dy, 1);
  float norm = cublasSnrm2(n, dy, 1);
  int imax = cublasIsamax(n, dy, 1);
  cublasSger(n, n, 1.0f, dx, 1, dy, 1, da, n);
  cublasSgemv('N', n, n, 1.0f, da, n, dx, 1, 0.0f, dy, 1);
  cublasSgemm('N', 'T', n, n, n, 1.0f, da, n, da, n, 0.0f, da, n);
  cublasStrmm('L', 'U', 'N', 'N', n, n, 1.0f, da, n, da, n);
  if (check("BLAS")) return 1;
  cublasGetVector(n, sizeof(float), dy, 1, hy, 1);
  cublasGetMatrix(n, n, sizeof(float), da, n, ha, n);
  cublasFree(dx);
  cublasFree(dy);
  cublasFree(da);
  cublasShutdown();
  printf("%f %f %d %f %f\n", dot, norm, imax, hy[0], ha[0]);
  return 0;
}
