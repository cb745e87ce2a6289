// soundness: must-refuse
// why: the kernel calls a __device__ function pointer that points to a function reading blockDim.x, so moving the launch to 256 threads changes every element
// no-edit: L007
// expect: L009 "cannot follow"
typedef float (*op_t)(float);
__device__ float by_block(float v) { return v * blockDim.x; }
__device__ op_t d_op = by_block;
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = d_op(x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
