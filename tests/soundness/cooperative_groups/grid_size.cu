// soundness: must-refuse
// why: this_grid().size() is the launch's thread count, which a new grid for 256-thread blocks changes
// no-edit: L007
// expect: L009 "cooperative group"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * cg::this_grid().size();
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
