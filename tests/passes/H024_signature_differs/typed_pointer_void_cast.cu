#include <cuda_runtime.h>

// CUDA's C++ overloads take T**; HIP 5.2's hipHostAlloc, hipMallocPitch and
// hipHostGetDevicePointer take void** only: the pointer is cast.
void pinned(size_t n, float **out) {
  float *host, *mapped, *dev;
  double *rows;
  size_t pitch;
  cudaHostAlloc(&host, n * sizeof(float), cudaHostAllocDefault);
  cudaHostAlloc(&mapped, n * sizeof(float), cudaHostAllocMapped);
  cudaHostGetDevicePointer(&dev, mapped, 0);
  cudaHostGetDevicePointer(out, mapped, 0);
  cudaMallocPitch(&rows, &pitch, n * sizeof(double), 4);
  cudaHostAlloc(n > 4 ? out : &host, n, cudaHostAllocPortable);
}

// Already void**: left as it is.
void untyped(size_t n) {
  void *raw;
  float *typed;
  cudaHostAlloc(&raw, n, cudaHostAllocDefault);
  cudaHostAlloc((void **)&typed, n, cudaHostAllocDefault);
  cudaMallocPitch(reinterpret_cast<void**>(&typed), &n, n, 2);
}

// HIP 5.2 has templates for these: nothing but the rename.
void templated(size_t n) {
  float *a, *b, *c;
  cudaMallocHost(&a, n);
  cudaMalloc(&b, n);
  cudaMallocManaged(&c, n);
}
