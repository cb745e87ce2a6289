// Host code that calls the CUDA runtime and no kernel: compiled by the C++ compiler,
// linked against the runtime (CUDA::cudart).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "stats/stats.h"

namespace stats {

void check(int status, const char *what) {
  if (status != 0) {
    std::fprintf(stderr, "FAIL cmake_stats: %s: %s\n", what, cudaGetErrorString(static_cast<cudaError_t>(status)));
    std::exit(1);
  }
}

DeviceBuffer::DeviceBuffer(std::size_t count) : count_(count) {
  check(cudaMalloc(&data_, count * sizeof(float)), "cudaMalloc");
}

DeviceBuffer::~DeviceBuffer() { cudaFree(data_); }

void DeviceBuffer::upload(const float *host) {
  check(cudaMemcpy(data_, host, count_ * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

void DeviceBuffer::download(float *host) const {
  check(cudaMemcpy(host, data_, count_ * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
}

}  // namespace stats
