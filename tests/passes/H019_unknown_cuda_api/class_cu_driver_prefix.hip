#include <hip/hip_runtime.h>

// `cu[A-Z]*` and `CU_*`, the driver API's functions, types and constants.
enum Mode { CU_MODE_FAST = 1 };       // the file's own enumerator

int setup(hipDeviceptr_t *p, hipDevice_t dev) {
  hipInit(0);
  hipMalloc(p, 256);
  cuMemFrobnicate(*p);
  CUfrobnicator f;
  return CU_MODE_FAST | CU_FROBNICATE_FLAG | (dev == hipCpuDeviceId);
}
