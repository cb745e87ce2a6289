// cu2hip-options: --rocm-version 6.3 --experimental
#include <hip/hip_runtime.h>

// HIP 6.3 marks these experimental: translated with --experimental.
unsigned long long flags_of(hipGraphExec_t exec) {
  unsigned long long flags = 0;
  hipGraphExecGetFlags(exec, &flags);
  return flags;
}
