// cu2hip-options: --rocm-version 7.1
#include <hip/hip_runtime.h>

// From HIP 7.1 hipMemPrefetchAsync_v2 and hipMemAdvise_v2 take the location.
void locations(const float *p, size_t n, hipMemLocation given, int device, hipStream_t s) {
  hipMemPrefetchAsync_v2(p, n, given, 0, s);
  hipMemPrefetchAsync_v2(p, n, given, 0, s);
  hipMemAdvise_v2(p, n, hipMemAdviseSetAccessedBy, given);
  // CUDA 12's device form: renamed only.
  hipMemPrefetchAsync(p, n, device, s);
}
