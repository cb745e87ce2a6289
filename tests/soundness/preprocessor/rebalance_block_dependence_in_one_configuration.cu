// soundness: must-refuse
// why: with -DUSE_BLOCK_DEP every element stores blockDim.x: moved to another block size the stored values change
// no-edit: L007
// expect: L009 "not one of the shapes"
// options: --target cuda
__global__ void k(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(USE_BLOCK_DEP)
  if (i < n) y[i] = blockDim.x;
#else
  if (i < n) y[i] *= 2;
#endif
}
void run(float* y, int n) { k<<<(n + 127) / 128, 128>>>(y, n); }
