// soundness: must-apply
// why: ns::twice is defined in the file (a known edge) and does not see the block
// edit: L007 "256"
namespace ns {
__device__ float twice(float v) { return 2.0f * v; }
}
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = ns::twice(x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
