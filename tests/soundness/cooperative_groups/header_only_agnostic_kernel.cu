// soundness: must-apply
// why: the file includes cooperative_groups.h but this kernel queries no group: it stays block-size agnostic
// edit: L007 "256"
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i];
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
