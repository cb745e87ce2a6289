// soundness: must-refuse
// why: the helper is passed the thread block and reads its size
// no-edit: L007
// expect: L009 "cooperative group"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float per_block(cg::thread_block b, float v) { return v / b.size(); }
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = per_block(cg::this_thread_block(), x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
