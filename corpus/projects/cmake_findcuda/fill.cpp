// Host code of a CUDA program compiled as C++ (not by nvcc): it calls the runtime through
// <cuda_runtime.h>, so its HIP translation needs hip::host's definitions.
#include <cuda_runtime.h>
#include <vector>

// Copies n values i * step to the device buffer; false when the copy fails.
bool fill_device(float* device, int n, float step)
{
    std::vector<float> host(n);
    for (int i = 0; i < n; ++i) host[i] = i * step;
    return cudaMemcpy(device, host.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess;
}
