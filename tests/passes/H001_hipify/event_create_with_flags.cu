#include <cuda_runtime.h>

void make_events(cudaEvent_t* timing, cudaEvent_t* sync_only) {
  // One argument: hipEventCreate. Two arguments: the C++ overload, hipEventCreateWithFlags.
  cudaEventCreate(timing);
  cudaEventCreate(sync_only, cudaEventDisableTiming | cudaEventBlockingSync);
  cudaEventCreateWithFlags(timing, cudaEventDefault);
}
