#include <hip/hip_runtime.h>

// CUDA's C++ overloads take T**; HIP 5.2's hipHostAlloc, hipMallocPitch and
// hipHostGetDevicePointer take void** only: the pointer is cast.
void pinned(size_t n, float **out) {
  float *host, *mapped, *dev;
  double *rows;
  size_t pitch;
  hipHostAlloc((void**)&host, n * sizeof(float), hipHostMallocDefault);
  hipHostAlloc((void**)&mapped, n * sizeof(float), hipHostMallocMapped);
  hipHostGetDevicePointer((void**)&dev, mapped, 0);
  hipHostGetDevicePointer((void**)out, mapped, 0);
  hipMallocPitch((void**)&rows, &pitch, n * sizeof(double), 4);
  hipHostAlloc((void**)(n > 4 ? out : &host), n, hipHostMallocPortable);
}

// Already void**: left as it is.
void untyped(size_t n) {
  void *raw;
  float *typed;
  hipHostAlloc(&raw, n, hipHostMallocDefault);
  hipHostAlloc((void **)&typed, n, hipHostMallocDefault);
  hipMallocPitch(reinterpret_cast<void**>(&typed), &n, n, 2);
}

// HIP 5.2 has templates for these: nothing but the rename.
void templated(size_t n) {
  float *a, *b, *c;
  hipHostMalloc(&a, n, hipHostMallocDefault);
  hipMalloc(&b, n);
  hipMallocManaged(&c, n);
}
