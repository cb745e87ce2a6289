// soundness: must-apply
// why: launch<BS> is called with 128 and 768: the bound is 768
// options: --no-rebalance
// edit: L001 "__launch_bounds__(768)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   template <int BS> void launch(float* x, int n) { scale<<<(n + BS - 1) / BS, BS>>>(x, n); }

   void run(float* x, int n) { launch<128>(x, n); launch<768>(x, n); }
