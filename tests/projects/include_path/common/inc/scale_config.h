// Found only through the project's include path (-I common/inc), as samples' helper
// headers are; BLOCK comes from the build (-DBLOCK=128).
#pragma once
#ifndef BLOCK
#error "BLOCK must be defined by the build (-DBLOCK=...)"
#endif

__device__ inline float scaled(float v) { return 2.0f * v + 1.0f; }
