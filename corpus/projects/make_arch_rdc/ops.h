// The device function of ops.cu, called across translation units (relocatable device code).
#pragma once
__device__ float axpy(float a, float x, float y);
