// cu2hip-options: --rocm-version 5.2
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

// HIP 5.2's hip_cooperative_groups.h needs hip_runtime.h before it: the runtime
// include moves up, and its later duplicate goes.
__global__ void __launch_bounds__(64) k(float *x) {
  cg::thread_block b = cg::this_thread_block();
  b.sync();
  x[b.thread_rank()] = 1.0f;
}

void run(float *x) { k<<<1, 64>>>(x); hipDeviceSynchronize(); }
