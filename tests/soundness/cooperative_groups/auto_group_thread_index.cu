// soundness: must-refuse
// why: auto g = this_thread_block(); g.thread_index().x is threadIdx.x
// no-edit: L007
// expect: L009 "cooperative group"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    auto g = cg::this_thread_block();
    if (i < n) x[i] = g.thread_index().x;
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
