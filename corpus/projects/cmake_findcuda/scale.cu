// The program of corpus/projects/cmake_findcuda: a buffer filled by the C++ source
// (fill.cpp), scaled on the device, checked on the CPU.
#include <cstdio>
#include <vector>

bool fill_device(float* device, int n, float step);

__global__ void scale_kernel(float* x, float factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= factor;
}

int main()
{
    const int n = 10000;
    float* d = nullptr;
    if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess || !fill_device(d, n, 0.5f)) {
        std::printf("FAIL cmake_findcuda: allocation or fill\n");
        return 1;
    }
    scale_kernel<<<(n + 127) / 128, 128>>>(d, 3.0f, n);
    std::vector<float> out(n);
    cudaError_t status = cudaMemcpy(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
    if (status != cudaSuccess) {
        std::printf("FAIL cmake_findcuda: %s\n", cudaGetErrorString(status));
        return 1;
    }
    for (int i = 0; i < n; ++i) {
        if (out[i] != i * 0.5f * 3.0f) {
            std::printf("FAIL cmake_findcuda at %d: %f\n", i, out[i]);
            return 1;
        }
    }
    cudaFree(d);
    std::printf("PASS cmake_findcuda\n");
    return 0;
}
