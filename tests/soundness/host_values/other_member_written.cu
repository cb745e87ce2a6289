// soundness: must-apply
// why: writing grid.x leaves the block's dim3 as declared
// options: --no-rebalance
// edit: L001 "__launch_bounds__(128)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    dim3 block(128), grid(1);
    grid.x = (n + 127) / 128;
    scale<<<grid, block>>>(x, n);
}
