// soundness: must-refuse
// why: a table of function pointers holds a function that reads blockDim.x; which one runs is chosen at run time
// no-edit: L007
// expect: L009 "cannot follow"
typedef float (*op_t)(float);
__device__ float twice(float v) { return 2.0f * v; }
__device__ float by_block(float v) { return v * blockDim.x; }
__device__ op_t table[2] = {twice, by_block};
__global__ void k(float* x, int n, int s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = table[s](x[i]);
}

void run(float* x, int n, int s)
{
    k<<<(n + 127) / 128, 128>>>(x, n, s);
}
