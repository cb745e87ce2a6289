#pragma once
__device__ inline float from_header(float v) { return v * blockDim.x; }
