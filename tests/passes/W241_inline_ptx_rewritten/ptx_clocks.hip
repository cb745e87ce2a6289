#include <hip/hip_runtime.h>
// %clock and %clock64 are clock() and clock64(): both count the GPU's cycles.
__global__ void timed(long long *cycles, unsigned *low) {
  long long start, stop;
  unsigned t;
  start = clock64();
  t = clock();
  stop = clock64();
  cycles[threadIdx.x] = stop - start;
  low[threadIdx.x] = t;
}
