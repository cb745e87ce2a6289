// soundness: must-refuse
// why: the function pointer passed in may point to a function that reads the block size
// no-edit: L007
// expect: L009 "cannot follow"
typedef float (*op_t)(float);
__global__ void k(float* x, int n, op_t op)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = op(x[i]);
}

void run(float* x, int n, op_t op)
{
    k<<<(n + 127) / 128, 128>>>(x, n, op);
}
