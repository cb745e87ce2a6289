#include "fill.cuh"
#include <cstdlib>
void b(int* x, int n) { int t = atoi(getenv("T")); fill<int><<<(n + t - 1) / t, t>>>(x, 1, n); }
