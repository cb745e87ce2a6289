#pragma once
#include <cuda_runtime.h>
#include "params.h"

__global__ void scale(float *x, ScaleParams p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) x[i] *= p.factor;
}
