#include <hip/hip_runtime.h>
// bfe, bfi, prmt and shf where the HIP builtin computes the same value: note bfi's
// operands, whose base word is PTX's second source and HIP's first argument.
__device__ unsigned bits(unsigned w, unsigned v, unsigned s) {
  unsigned a, b, c, d, e, f, g, h, k;
  a = __bitextract_u32(w, 8, 4);
  b = __bitextract_u32(w, 24, 8);
  c = __bitinsert_u32(w, v, 4, 12);
  d = __bitinsert_u32(w, v, 28, 30);
  e = __byte_perm(w, v, 0x5140);
  f = __funnelshift_l(w, v, s);
  g = __funnelshift_r(w, v, s);
  h = __funnelshift_lc(w, v, s);
  k = __funnelshift_rc(w, v, 7);
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ k;
}
