// soundness: must-apply
// why: another kernel of the file uses a thread block; this one does not, and moves
// edit: L007 "256"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void other(float* x)
{
    cg::thread_block b = cg::this_thread_block();
    x[b.thread_rank()] = 0.0f;
    b.sync();
}
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 3.0f * x[i];
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
