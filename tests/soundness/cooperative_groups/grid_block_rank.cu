// soundness: must-refuse
// why: block_rank() is the block's index in the grid, which a new block size renumbers
// no-edit: L007
// expect: L009 "cooperative group"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] + cg::this_grid().block_rank();
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
