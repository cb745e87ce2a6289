// cu2hip-options: --rocm-version 6.3 --experimental
#include <cuda_runtime.h>

// HIP 6.3 marks these experimental: translated with --experimental.
unsigned long long flags_of(cudaGraphExec_t exec) {
  unsigned long long flags = 0;
  cudaGraphExecGetFlags(exec, &flags);
  return flags;
}
