// bfe, bfi, prmt and shf where the HIP builtin computes the same value: note bfi's
// operands, whose base word is PTX's second source and HIP's first argument.
__device__ unsigned bits(unsigned w, unsigned v, unsigned s) {
  unsigned a, b, c, d, e, f, g, h, k;
  asm("bfe.u32 %0, %1, 8, 4;" : "=r"(a) : "r"(w));
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(b) : "r"(w), "n"(24), "n"(8));
  asm("bfi.b32 %0, %1, %2, 4, 12;" : "=r"(c) : "r"(v), "r"(w));
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(v), "r"(w), "r"(28), "r"(30));
  asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(e) : "r"(w), "r"(v));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(f) : "r"(w), "r"(v), "r"(s));
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(g) : "r"(w), "r"(v), "r"(s));
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(h) : "r"(w), "r"(v), "r"(s));
  asm("shf.r.clamp.b32 %0, %1, %2, 7;" : "=r"(k) : "r"(w), "r"(v));
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ k;
}
