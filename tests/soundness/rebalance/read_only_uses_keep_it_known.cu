// soundness: must-apply
// why: printing the block size does not change it: the launch moves
// edit: L007 "256"
#include <cstdio>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x, int n)
   {
       const int threads = 1024;
       printf("%d\n", threads);
       scale<<<(n + threads - 1) / threads, threads>>>(x, n);
   }
