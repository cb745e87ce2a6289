// soundness: must-refuse
// why: the helper the kernel calls reads this_grid().thread_rank() and size(), which depend on the grid and block
// no-edit: L007
// expect: L009 "which uses"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float share(float v) { return v / cg::this_grid().size(); }
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = share(x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
