// soundness: must-refuse
// why: the host reads h right after a cudaMemcpyAsync that is synchronous only because h is pageable; pinned, the copy would still be running when the host reads it
// no-edit: R007
// expect: R009 "from pageable memory the copy is synchronous"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void steps(float* d, int n, cudaStream_t s)
{
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 8; ++it) {
        twice<<<(n + 255) / 256, 256, 0, s>>>(d, n);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        printf("%f\n", h[0]);
    }
    free(h);
}
