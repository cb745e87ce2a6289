#include <cuda.h>

// `cu[A-Z]*` and `CU_*`, the driver API's functions, types and constants.
enum Mode { CU_MODE_FAST = 1 };       // the file's own enumerator

int setup(CUdeviceptr *p, CUdevice dev) {
  cuInit(0);
  cuMemAlloc(p, 256);
  cuMemFrobnicate(*p);
  CUfrobnicator f;
  return CU_MODE_FAST | CU_FROBNICATE_FLAG | (dev == CU_DEVICE_CPU);
}
