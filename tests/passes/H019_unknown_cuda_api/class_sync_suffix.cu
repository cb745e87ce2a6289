// cu2hip-options: --select H019
// `__*_sync`, the warp intrinsics that take a mask: `__uni_sync` is CUDA's but in no
// table. (--select H019: only this rule, so the known names stay as they are here.)
__global__ void vote(const int *in, int *out) {
  int p = in[threadIdx.x] > 0;
  out[0] = __uni_sync(0xffffffffu, p);
  out[1] = __all_sync(0xffffffffu, p);
  out[2] = __reduce_or_sync(0xffffffffu, p);
}
