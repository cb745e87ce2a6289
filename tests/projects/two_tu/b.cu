#include "kernels.cuh"
constexpr int kBlock = 256;
void large(float *x, int n) { scale<<<(n + kBlock - 1) / kBlock, kBlock>>>(x, 0.5f, n); }
