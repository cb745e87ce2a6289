// soundness: must-refuse
// why: ns::scale is only declared here: its body, elsewhere, may read the block size
// no-edit: L007
// expect: L009 "cannot follow"
namespace ns {
__device__ float scale(float v);
}
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = ns::scale(x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
