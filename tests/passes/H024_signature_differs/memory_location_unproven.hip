#include <hip/hip_runtime.h>

void keep(hipMemLocation &where);

// Not provably a device location, or flags not written as 0: an error that gives the
// call to write, and the call is left as it is.
void unproven(const float *p, size_t n, hipMemLocation given, unsigned flags, hipStream_t s, bool far) {
  cudaMemPrefetchAsync(p, n, given, 0, s);

  hipMemLocation passed = {hipMemLocationTypeDevice, 0};
  keep(passed);
  cudaMemPrefetchAsync(p, n, passed, 0, s);

  hipMemLocation late;
  cudaMemPrefetchAsync(p, n, late, 0, s);
  late.type = hipMemLocationTypeDevice;

  hipMemLocation maybe = {};
  if (far) maybe.type = hipMemLocationTypeDevice;
  cudaMemAdvise(p, n, hipMemAdviseSetPreferredLocation, maybe);

  hipMemLocation gpu = {hipMemLocationTypeDevice, 1};
  cudaMemPrefetchAsync(p, n, gpu, flags, s);
}
