// soundness: must-refuse
// why: a virtual call dispatches to an override that may read blockDim.x
// no-edit: L007
// expect: L009 "cannot follow"
struct Op
{
    __device__ virtual float apply(float v) const { return v; }
};
__global__ void k(float* x, int n, const Op* op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = op->apply(x[i]);
}

void run(float* x, int n, const Op* op)
{
    k<<<(n + 127) / 128, 128>>>(x, n, op);
}
