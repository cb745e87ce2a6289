// Kernels and helpers for the stream-capture graph program.
#ifndef GRAPH_CAPTURE_KERNELS_CUH
#define GRAPH_CAPTURE_KERNELS_CUH

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

#define THREADS_PER_BLOCK 256

// Launches a 1D elementwise kernel over n items on the given stream.
#define LAUNCH_1D(kernel, n, stream, ...) \
    kernel<<<((n) + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK, THREADS_PER_BLOCK, 0, (stream)>>>(__VA_ARGS__)

__global__ void scale_inplace(float* x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

__global__ void add_scalar(float* x, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += b;
}

__global__ void accumulate(float* acc, const float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) acc[i] += x[i];
}

#endif  // GRAPH_CAPTURE_KERNELS_CUH
