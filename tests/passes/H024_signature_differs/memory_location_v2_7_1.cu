// cu2hip-options: --rocm-version 7.1
#include <cuda_runtime.h>

// From HIP 7.1 hipMemPrefetchAsync_v2 and hipMemAdvise_v2 take the location.
void locations(const float *p, size_t n, cudaMemLocation given, int device, cudaStream_t s) {
  cudaMemPrefetchAsync(p, n, given, 0, s);
  cudaMemPrefetchAsync_v2(p, n, given, 0, s);
  cudaMemAdvise(p, n, cudaMemAdviseSetAccessedBy, given);
  // CUDA 12's device form: renamed only.
  cudaMemPrefetchAsync(p, n, device, s);
}
