// soundness: must-apply
// why: a const reference to threads only reads it
// options: --no-rebalance
// edit: L001 "__launch_bounds__(320)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}


void run(float* x, int n)
{
    int threads = 320;
    const int& r = threads;
    scale<<<(n + r - 1) / r, threads>>>(x, n);
}
