// soundness: must-apply
// why: the block's `threads` (64) has ended at the launch, which reads the global's 1024: a bound of 64 would fail the launch
// options: --no-rebalance
// edit: L001 "__launch_bounds__(1024)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

const int threads = 1024;

int main()
{
    int n = 1 << 20;
    float* x = nullptr;
    {
        int threads = 64;
        n -= threads;
    }
    for (int threads = 0; threads < 2; threads++) n += threads;
    scale<<<(n + 1023) / 1024, threads>>>(x, n);
    return 0;
}
