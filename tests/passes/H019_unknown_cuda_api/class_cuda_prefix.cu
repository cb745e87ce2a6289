#include <cuda_runtime.h>

// `cuda*`, the runtime's prefix: a name no table lists is reported at each use; a
// known one is renamed; the file's own names and text in strings and comments are not
// reported.
static cudaError_t cudaCheckedSync(void) { return cudaDeviceSynchronize(); }

void run(cudaStream_t s) {
  cudaStreamFrobnicate(s);
  cudaStreamFrobnicate(0);            // a second use: a second warning
  cudaCheckedSync();
  const char *why = "cudaStreamFrobnicate is not real";
  cudaStream_fancy_t extra;           // `cuda_`: the same class
}
