#include "scale.h"
void b(float* x, int n) { scale<<<n / 512, 512>>>(x, n); }
