#include <cuda_runtime.h>
#include <cstdio>

int main() {
  const size_t bytes = 1024 * sizeof(float);
  float* h = nullptr;
  float* d = nullptr;
  cudaMallocHost((void**)&h, bytes);
  cudaMalloc((void**)&d, bytes);
  cudaMemset(d, 0, bytes);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpyKind kind = cudaMemcpyDefault;
  cudaDeviceSynchronize();
  cudaFree(d);
  cudaFreeHost(h);
  return kind == cudaMemcpyDefault ? 0 : 1;
}
