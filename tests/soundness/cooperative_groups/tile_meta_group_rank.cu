// soundness: must-refuse
// why: a 32-thread tile's meta_group_rank() counts tiles within the block, which a larger block renumbers
// no-edit: L007
// expect: L009 "cooperative group"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = cg::tiled_partition<32>(cg::this_thread_block()).meta_group_rank();
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
