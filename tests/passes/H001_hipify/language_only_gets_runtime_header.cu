// A .cu file with CUDA's language and no API call: hipcc needs hip/hip_runtime.h for
// __global__ and threadIdx, which nvcc declared implicitly.
__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
