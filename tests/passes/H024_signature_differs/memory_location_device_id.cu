#include <cuda.h>
#include <cuda_runtime.h>

// CUDA 12's forms take a device id, as HIP does: renamed only.
void cuda12(const float *p, size_t n, int device, cudaStream_t s) {
  cudaMemPrefetchAsync(p, n, device, s);
  cudaMemPrefetchAsync(p, n, cudaCpuDeviceId);
  cudaMemAdvise(p, n, cudaMemAdviseSetPreferredLocation, device);
}

// CUDA 13's forms take a cudaMemLocation: one provably of type device becomes its id,
// and the flags (CUDA requires 0) are dropped.
void cuda13(const float *p, size_t n, int device, cudaStream_t s) {
  cudaMemLocation here = {cudaMemLocationTypeDevice, device};
  cudaMemPrefetchAsync(p, n, here, 0, s);
  cudaMemPrefetchAsync(p, n, here, 0);
  cudaMemAdvise(p, n, cudaMemAdviseSetAccessedBy, here);

  cudaMemLocation set;
  set.type = cudaMemLocationTypeDevice;
  set.id = device;
  cudaMemPrefetchAsync(p, n, set, 0U, s);

  cudaMemPrefetchAsync(p, n, cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0, s);
  cudaMemPrefetchAsync(p, n, {cudaMemLocationTypeDevice, device}, 0, s);
  cudaMemLocation named = {.type = cudaMemLocationTypeDevice, .id = device};
  cudaMemAdvise(p, n, cudaMemAdviseSetPreferredLocation, named);
}

// CUDA 12.2's _v2 forms take a location too: they become HIP's call that takes the id.
void cuda122(const float *p, size_t n, cudaStream_t s) {
  cudaMemLocation gpu0 = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync_v2(p, n, gpu0, 0, s);
  cudaMemAdvise_v2(p, n, cudaMemAdviseSetReadMostly, gpu0);
}

// The driver API alike.
void driver(CUdeviceptr p, size_t n, CUstream s) {
  CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  cuMemPrefetchAsync(p, n, loc, 0, s);
}
