// The program of corpus/projects/make_arch_rdc: y = a*x + y on the device through a
// device function of another translation unit, checked on the CPU.
#include <cstdio>
#include <vector>
#include "ops.h"

__global__ void saxpy_kernel(float a, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = axpy(a, x[i], y[i]);
}

int main()
{
    const int n = 1 << 16;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) { x[i] = float(i % 97); y[i] = float(i % 13); }
    float *d_x, *d_y;
    if (cudaMalloc(&d_x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&d_y, n * sizeof(float)) != cudaSuccess) {
        std::printf("FAIL make_arch_rdc: cudaMalloc\n");
        return 1;
    }
    cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    saxpy_kernel<<<(n + 255) / 256, 256>>>(2.0f, d_x, d_y, n);
    std::vector<float> out(n);
    cudaError_t status = cudaMemcpy(out.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
    if (status != cudaSuccess) {
        std::printf("FAIL make_arch_rdc: %s\n", cudaGetErrorString(status));
        return 1;
    }
    for (int i = 0; i < n; ++i) {
        if (out[i] != 2.0f * x[i] + y[i]) {
            std::printf("FAIL make_arch_rdc at %d: %f, not %f\n", i, out[i], 2.0f * x[i] + y[i]);
            return 1;
        }
    }
    cudaFree(d_x);
    cudaFree(d_y);
    std::printf("PASS make_arch_rdc\n");
    return 0;
}
