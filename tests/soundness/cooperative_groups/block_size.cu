// soundness: must-refuse
// why: a thread_block's size() is blockDim.x: moving the launch to 256 threads changes every element
// no-edit: L007
// expect: L009 "cooperative group"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    cg::thread_block b = cg::this_thread_block();
    if (i < n) x[i] = x[i] / b.size();
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
