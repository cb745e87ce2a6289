#pragma once
__global__ void scale(float *x, int n);
void run_scale(float *x, int n);
