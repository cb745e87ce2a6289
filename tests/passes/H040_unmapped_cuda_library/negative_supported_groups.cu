// cu2hip-options: --rocm-version 5.2
#include <cooperative_groups.h>
using namespace cooperative_groups;

// Nothing here is beyond HIP's cooperative groups: no H040. A function of the user's
// named reduce, called bare, is the user's.
__device__ float reduce(float a, float b) { return a + b; }

__global__ void k(float *x) {
  thread_block b = this_thread_block();
  b.sync();
  x[b.thread_rank()] = reduce(x[0], 1.0f);
}
