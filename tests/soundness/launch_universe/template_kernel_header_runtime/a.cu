#include "fill.cuh"
void a(float* x, int n) { fill<float><<<(n + 255) / 256, 256>>>(x, 1.0f, n); }
