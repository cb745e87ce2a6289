// cu2hip-options: --hip-kernel-execution-syntax --no-fuse --ignore L
#include <cuda_runtime.h>

__global__ void fill(float* a, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}
__global__ void tick() {}

void run(float* a, int n, cudaStream_t stream) {
  dim3 grid((n + 255) / 256), block(256);
  fill<<<(n + 255) / 256, 256>>>(a, 1.0f, n);
  fill<<<grid, block>>>(a, 2.0f, n);
  fill<<<dim3(4, 1), dim3(64, 1, 1), 1024, stream>>>(a, 3.0f, n);
  fill<<<1, 64, 0>>>(a, 4.0f, n);
  fill<<<1, 64>>>(
      a, 5.0f, n);
  tick<<<1, 1>>>();
}
