// soundness: must-apply
// why: the buffer is only filled, copied with blocking cudaMemcpy and freed once after the loop in its own block: pinned, every copy reads the same bytes and is as synchronous
// edit: R007 "cudaMallocHost(&h, n * sizeof(float));"
// edit: R007 "cudaFreeHost(h)"
// options: --target cuda
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void steps(float* d)
{
    const int n = 1 << 20;
    float* h = (float*)malloc(n * sizeof(float));
    for (int it = 0; it < 8; ++it) {
        for (int i = 0; i < n; ++i) h[i] = (float)it;
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        twice<<<(n + 255) / 256, 256>>>(d, n);
    }
    free(h);
}
