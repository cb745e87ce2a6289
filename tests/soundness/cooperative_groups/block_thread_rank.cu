// soundness: must-refuse
// why: this_thread_block().thread_rank() is threadIdx.x: the value stored depends on the block size
// no-edit: L007
// expect: L009 "cooperative group"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = cg::this_thread_block().thread_rank();
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
