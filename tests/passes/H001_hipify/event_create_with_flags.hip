#include <hip/hip_runtime.h>

void make_events(hipEvent_t* timing, hipEvent_t* sync_only) {
  // One argument: hipEventCreate. Two arguments: the C++ overload, hipEventCreateWithFlags.
  hipEventCreate(timing);
  hipEventCreateWithFlags(sync_only, hipEventDisableTiming | hipEventBlockingSync);
  hipEventCreateWithFlags(timing, hipEventDefault);
}
