#include <hip/hip_runtime.h>


// CUDA 12's forms take a device id, as HIP does: renamed only.
void cuda12(const float *p, size_t n, int device, hipStream_t s) {
  hipMemPrefetchAsync(p, n, device, s);
  hipMemPrefetchAsync(p, n, hipCpuDeviceId);
  hipMemAdvise(p, n, hipMemAdviseSetPreferredLocation, device);
}

// CUDA 13's forms take a cudaMemLocation: one provably of type device becomes its id,
// and the flags (CUDA requires 0) are dropped.
void cuda13(const float *p, size_t n, int device, hipStream_t s) {
  hipMemLocation here = {hipMemLocationTypeDevice, device};
  hipMemPrefetchAsync(p, n, here.id, s);
  hipMemPrefetchAsync(p, n, here.id);
  hipMemAdvise(p, n, hipMemAdviseSetAccessedBy, here.id);

  hipMemLocation set;
  set.type = hipMemLocationTypeDevice;
  set.id = device;
  hipMemPrefetchAsync(p, n, set.id, s);

  hipMemPrefetchAsync(p, n, hipMemLocation{hipMemLocationTypeDevice, 0}.id, s);
  hipMemPrefetchAsync(p, n, hipMemLocation{hipMemLocationTypeDevice, device}.id, s);
  hipMemLocation named = {.type = hipMemLocationTypeDevice, .id = device};
  hipMemAdvise(p, n, hipMemAdviseSetPreferredLocation, named.id);
}

// CUDA 12.2's _v2 forms take a location too: they become HIP's call that takes the id.
void cuda122(const float *p, size_t n, hipStream_t s) {
  hipMemLocation gpu0 = {hipMemLocationTypeDevice, 0};
  hipMemPrefetchAsync(p, n, gpu0.id, s);
  hipMemAdvise(p, n, hipMemAdviseSetReadMostly, gpu0.id);
}

// The driver API alike.
void driver(hipDeviceptr_t p, size_t n, hipStream_t s) {
  hipMemLocation loc = {hipMemLocationTypeDevice, 0};
  hipMemPrefetchAsync(p, n, loc.id, s);
}
