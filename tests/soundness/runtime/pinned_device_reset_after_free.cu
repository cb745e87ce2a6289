// soundness: must-apply
// why: finish() resets the device only after the free of h (and after every use of it): made pinned, h is released by cudaFreeHost before the reset, which then releases nothing the host still holds
// edit: R007 "cudaMallocHost(&h, n * sizeof(float))"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void twice(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2;
}
void release_device()
{
    cudaDeviceSynchronize();
    cudaDeviceReset();
}
void finish() { release_device(); }
int main()
{
    const int n = 1 << 18;
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    float* h = (float*)malloc(n * sizeof(float));
    if (!h) {
        printf("FAIL: no host memory\n");
        return 1;
    }
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 1000);
    for (int it = 0; it < 4; ++it) {
        cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
        twice<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    }
    cudaFree(d);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += h[i] != (float)(i % 1000) * 16;
    free(h);
    finish();
    if (wrong) {
        printf("FAIL: %d of %d elements are not 16 times their start\n", wrong, n);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
