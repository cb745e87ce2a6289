// Configuration and host reference for the 2D five-point stencil program.
#pragma once

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_CHECK(call)                                                            \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

namespace stencil {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

struct Coeffs {
    float center;
    float neighbour;
};

// Value outside the domain is zero (Dirichlet boundary).
inline float at(const std::vector<float>& g, int w, int h, int x, int y)
{
    return (x < 0 || y < 0 || x >= w || y >= h) ? 0.0f : g[y * w + x];
}

inline void reference_step(const std::vector<float>& in, std::vector<float>& out, int w, int h,
                           Coeffs c)
{
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            out[y * w + x] = c.center * in[y * w + x] +
                             c.neighbour * (at(in, w, h, x - 1, y) + at(in, w, h, x + 1, y) +
                                            at(in, w, h, x, y - 1) + at(in, w, h, x, y + 1));
}

}  // namespace stencil
