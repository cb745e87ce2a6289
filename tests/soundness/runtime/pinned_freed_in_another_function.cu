// soundness: must-refuse
// why: the buffer is returned and released by the caller with free(); allocated pinned, that free() would be given memory of cudaMallocHost
// no-edit: R007
// expect: R008 "is returned"
// options: --target cuda
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
float* download(float* d, int n)
{
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 8; ++it) {
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    }
    return h;
}
void use(float* d, int n)
{
    float* h = download(d, n);
    free(h);
}
