#include "kernels.cuh"
void small(float *x, int n) { scale<<<(n + 127) / 128, 128>>>(x, 2.0f, n); }
