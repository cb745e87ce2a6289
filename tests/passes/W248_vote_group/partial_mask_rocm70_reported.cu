// cu2hip-options: --rocm-version 7.0
// A vote of some lanes (a partial mask) cannot become the group's vote: reported.
__global__ void k(const int *in, int *out) {
  const int lane = threadIdx.x % 32;
  int any = __any_sync(0x0000ffff, in[threadIdx.x] > 0);
  if (lane == 0) out[threadIdx.x / 32] = any;
}
