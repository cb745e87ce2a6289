#include <cuda_runtime.h>

void keep(cudaMemLocation &where);

// Not provably a device location, or flags not written as 0: an error that gives the
// call to write, and the call is left as it is.
void unproven(const float *p, size_t n, cudaMemLocation given, unsigned flags, cudaStream_t s, bool far) {
  cudaMemPrefetchAsync(p, n, given, 0, s);

  cudaMemLocation passed = {cudaMemLocationTypeDevice, 0};
  keep(passed);
  cudaMemPrefetchAsync(p, n, passed, 0, s);

  cudaMemLocation late;
  cudaMemPrefetchAsync(p, n, late, 0, s);
  late.type = cudaMemLocationTypeDevice;

  cudaMemLocation maybe = {};
  if (far) maybe.type = cudaMemLocationTypeDevice;
  cudaMemAdvise(p, n, cudaMemAdviseSetPreferredLocation, maybe);

  cudaMemLocation gpu = {cudaMemLocationTypeDevice, 1};
  cudaMemPrefetchAsync(p, n, gpu, flags, s);
}
