// soundness: must-refuse
// why: b.x = 1024 after dim3 b(64): no launch of 64 threads to move
// no-edit: L007
// no-edit: L001
// expect: L002 "'b.x' is assigned"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x, int n)
   {
       dim3 b(64);
       b.x = 1024;
       scale<<<(n + 1023) / 1024, b>>>(x, n);
   }
