// soundness: must-apply
// why: dim3 b(T) of a constant T is a 128-thread block, not a function
// options: --no-rebalance
// edit: L001 "__launch_bounds__(128)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


const int T = 128;

void run(float* x, int n)
{
    dim3 b(T);
    scale<<<(n + T - 1) / T, b>>>(x, n);
}
