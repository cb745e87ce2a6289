// soundness: must-refuse
// why: the buffer is stored in a struct the caller frees with free(); allocated pinned, free() would meet memory cudaMallocHost gave
// no-edit: R007
// expect: R008 "stores or overwrites it"
// options: --target cuda
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
struct Result { float* values; int n; };
void collect(Result* out, float* d, int n)
{
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 8; ++it) {
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    }
    out->values = h;
    out->n = n;
}
