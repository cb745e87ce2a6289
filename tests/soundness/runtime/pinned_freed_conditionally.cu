// soundness: must-refuse
// why: the buffer is freed only when the caller says so and is handed back otherwise; pinned, the path that keeps it would hand back memory free() cannot release
// no-edit: R007
// expect: R008 "not a statement of the block that allocates it"
// options: --target cuda
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
float* kept;
void steps(float* d, int n, bool keep)
{
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 8; ++it)
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    if (!keep) {
        free(h);
    }
}
