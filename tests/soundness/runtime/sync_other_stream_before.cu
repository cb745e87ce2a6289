// soundness: must-refuse
// why: a copy on the default stream before the work on s may still be in flight (a pageable upload returns before its DMA ends); only the device-wide wait covers it
// no-edit: R010
// expect: R006 "runs on the default stream"
// options: --target cuda
#include <cstdlib>
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }
__global__ void half(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
int main()
{
    const int n = 1024;
    float* h = (float*)calloc(n, sizeof(float));
    float* d;
    float* e;
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&e, n * sizeof(float));
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMemcpy(e, h, n * sizeof(float), cudaMemcpyHostToDevice);
    twice<<<4, 256, 0, s>>>(d, n);
    cudaDeviceSynchronize();
    return 0;
}
