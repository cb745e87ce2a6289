#include <hip/hip_runtime.h>
#include <cstdio>

int main() {
  const size_t bytes = 1024 * sizeof(float);
  float* h = nullptr;
  float* d = nullptr;
  hipHostMalloc((void**)&h, bytes, hipHostMallocDefault);
  hipMalloc((void**)&d, bytes);
  hipMemset(d, 0, bytes);
  hipMemcpy(d, h, bytes, hipMemcpyHostToDevice);
  hipMemcpy(h, d, bytes, hipMemcpyDeviceToHost);
  hipMemcpyKind kind = hipMemcpyDefault;
  hipDeviceSynchronize();
  hipFree(d);
  hipHostFree(h);
  return kind == hipMemcpyDefault ? 0 : 1;
}
