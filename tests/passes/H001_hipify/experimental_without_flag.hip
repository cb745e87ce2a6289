// cu2hip-options: --rocm-version 6.3
#include <hip/hip_runtime.h>

// HIP 6.3 marks these experimental: not translated without --experimental.
unsigned long long flags_of(hipGraphExec_t exec) {
  unsigned long long flags = 0;
  cudaGraphExecGetFlags(exec, &flags);
  return flags;
}
