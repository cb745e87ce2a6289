// soundness: must-refuse
// why: the grid was computed from n before grow(n) doubled it: a grid recomputed from n at the launch covers other elements
// no-edit: L007
// expect: L009 "which the function changes"
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void grow(int& n) { n *= 2; }

   void run(float* x, int n)
   {
       int blocks = (n + 1023) / 1024;
       grow(n);
       scale<<<blocks, 1024>>>(x, n);
   }
