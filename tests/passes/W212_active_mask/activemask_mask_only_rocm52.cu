// `__activemask()` kept in an unsigned and used only as a mask: declared 64-bit.
__device__ int broadcast_first(int v) {
  unsigned m = __activemask();
  return __shfl_sync(m, v, 0);
}
