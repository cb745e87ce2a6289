// soundness: must-refuse
// why: a known helper calls through a function pointer: what the pointer reaches may read the block size
// no-edit: L007
// expect: L009 "through step"
typedef float (*op_t)(float);
__device__ float by_block(float v) { return v * blockDim.x; }
__device__ op_t d_op = by_block;
__device__ float step(float v) { return d_op(v) + 1.0f; }
__global__ void k(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = step(x[i]);
}

void run(float* x, int n)
{
    k<<<(n + 127) / 128, 128>>>(x, n);
}
