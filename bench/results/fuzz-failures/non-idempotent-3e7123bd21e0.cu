#include <cuda_runtime.h>
__global__ vd scale( x, oa, a,nt n) {
int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
#include <cuda_runtime.h>
    ;
  }
}
__global__ add(co, at* y,out, n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
  }
}
stnt n) {
  scale<<<grid, 256>>>(x, t, alpha, n);
  add<<<grid, 256>>>(t, y, out, n);
