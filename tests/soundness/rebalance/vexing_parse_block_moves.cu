// soundness: must-apply
// why: dim3 block(T) of a constant T is a known block: the launch moves
// edit: L007 "256"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   const int T = 1024;

   void run(float* x, int n)
   {
       dim3 block(T);
       scale<<<(n + T - 1) / T, block>>>(x, n);
   }
