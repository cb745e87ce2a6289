// soundness: must-refuse
// why: cudaOccupancyMaxPotentialBlockSize writes the block size at run time
// no-edit: L001
// no-edit: L007
// expect: L002 "scale"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x, int n)
   {
       int min_grid = 0, block = 128;
       cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, scale, 0, 0);
       scale<<<(n + block - 1) / block, block>>>(x, n);
   }
