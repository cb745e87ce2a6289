// soundness: must-refuse
// why: group_dim().x is blockDim.x
// no-edit: L007
// expect: L009 "cooperative group"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * cg::this_thread_block().group_dim().x;
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
