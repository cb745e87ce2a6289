#include "scale.cuh"
void a(float* x, int n) { scale<<<(n + 127) / 128, 128>>>(x, n); }
