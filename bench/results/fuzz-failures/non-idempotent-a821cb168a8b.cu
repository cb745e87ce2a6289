#include<cuda_runtime.h>__global__ fill(f*a,v,t n){t i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n)a[i]=v;}t s{ fill<<<1, 64, 0>>>(a,f, n);
#include <cuda_runtime.h> fill<<<1, 64>>>(
a,f, n);