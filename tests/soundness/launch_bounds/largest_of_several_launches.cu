// soundness: must-apply
// why: launches of 64, 256 and 512: the bound is the largest
// options: --no-rebalance
// edit: L001 "__launch_bounds__(512)"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x, int n)
   {
       scale<<<(n + 63) / 64, 64>>>(x, n);
       scale<<<(n + 255) / 256, 256>>>(x, n);
       dim3 wide(512);
       scale<<<(n + 511) / 512, wide>>>(x, n);
   }
