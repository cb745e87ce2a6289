#include <vector>
#include "util/check.h"
#include "../kernels/scale.cuh"

int main() {
    const int n = 1000;
    std::vector<float> host(n, 2.0f);
    float *dev = nullptr;
    REQUIRE(cudaMalloc(&dev, n * sizeof(float)) == cudaSuccess, "cudaMalloc");
    cudaMemcpy(dev, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    ScaleParams p{3.0f, n};
    scale<<<ceil_div(n, 256), 256>>>(dev, p);
    cudaMemcpy(host.data(), dev, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dev);
    for (float v : host) REQUIRE(v == 6.0f, "scaled value");
    std::printf("PASS\n");
    return 0;
}
