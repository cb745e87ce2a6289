// soundness: must-refuse
// why: with `using namespace cooperative_groups`, this_thread_block().size() is blockDim.x as well
// no-edit: L007
// expect: L009 "cooperative group"
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] / this_thread_block().size();
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
