// soundness: must-apply
// why: dim3 b{T} of a constant
// options: --no-rebalance
// edit: L001 "__launch_bounds__(192)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


const int T = 192;

void run(float* x, int n)
{
    dim3 b{T};
    scale<<<(n + T - 1) / T, b>>>(x, n);
}
