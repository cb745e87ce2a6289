// soundness: must-refuse
// why: the grid's count is read from a stream after the grid was computed
// no-edit: L007
// expect: L009 "which the function changes"
#include <iostream>
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

   void run(float* x, int n)
   {
       int blocks = (n + 1023) / 1024;
       std::cin >> n;
       scale<<<blocks, 1024>>>(x, n);
   }
