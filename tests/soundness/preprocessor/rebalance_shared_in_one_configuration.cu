// soundness: must-refuse
// why: with -DTILED the kernel shares a tile across its block and reverses it by threadIdx.x: moved from 128 to 256 threads its indices run past the tile and the result changes
// no-edit: L007
// expect: L009 "shared memory (t)"
// options: --target cuda
__global__ void k(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef TILED
  __shared__ float t[128];
  t[threadIdx.x] = y[i];
  __syncthreads();
  y[i] = t[127 - threadIdx.x];
#else
  if (i < n) y[i] *= 2;
#endif
}
void run(float* y, int n) { k<<<(n + 127) / 128, 128>>>(y, n); }
