// soundness: must-apply
// why: const dim3 b(T) is a variable too
// options: --no-rebalance
// edit: L001 "__launch_bounds__(256)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


constexpr int T = 256;

void run(float* x, int n)
{
    const dim3 b(T);
    scale<<<(n + T - 1) / T, b>>>(x, n);
}
