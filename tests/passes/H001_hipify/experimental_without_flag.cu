// cu2hip-options: --rocm-version 6.3
#include <cuda_runtime.h>

// HIP 6.3 marks these experimental: not translated without --experimental.
unsigned long long flags_of(cudaGraphExec_t exec) {
  unsigned long long flags = 0;
  cudaGraphExecGetFlags(exec, &flags);
  return flags;
}
