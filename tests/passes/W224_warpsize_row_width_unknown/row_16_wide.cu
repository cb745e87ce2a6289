// Blocks launched 16 wide: warpSize as the row width is reported, not rewritten.
__global__ void k(float* out, const float* in) {
  int t = threadIdx.y * warpSize + threadIdx.x;
  int i = blockIdx.x * 64 + t;
  out[i] = in[i] * 2.0f;
}
void host(float* out, const float* in, int n) {
  k<<<n / 64, dim3(16, 4)>>>(out, in);
}
