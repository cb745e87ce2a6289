// Helpers shared by the device-side cuRAND statistics program.
#pragma once

#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                            \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

#define WARP_SIZE 32

// Accumulators filled by the kernel with double atomics.
struct Moments {
    double uniform_sum;
    double uniform_sumsq;
    double normal_sum;
    double normal_sumsq;
    unsigned long long out_of_range;
};

// Tree reduction within one 32-wide warp using shuffles (offsets 16, 8, 4, 2, 1).
template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v)
{
    unsigned mask = 0xffffffff;
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(mask, v, offset);
    return v;
}

// Returns true if |value - expected| <= tol, printing a diagnostic otherwise.
inline bool within(const char* what, double value, double expected, double tol)
{
    if (std::fabs(value - expected) <= tol) return true;
    fprintf(stderr, "%s = %.6f, expected %.6f +- %.6f\n", what, value, expected, tol);
    return false;
}
