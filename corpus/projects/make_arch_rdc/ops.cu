// axpy: defined here, called from saxpy.cu's kernel (linked as relocatable device code).
#include "ops.h"
__device__ float axpy(float a, float x, float y) { return a * x + y; }
