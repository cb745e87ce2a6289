// cu2hip-options: --rocm-version 7.0
// shfl over 32-lane segments keeps its width, written out; from HIP 7.0 the 32-bit full mask is widened (H006)
// and the mask-less legacy form stays.
__device__ float shuffles(float v, int x) {
  float a, b, c;
  int d, e;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(a) : "f"(v), "r"(16));
  asm volatile("shfl.sync.up.b32 %0, %1, 1, 0x0, 0xffffffff;" : "=f"(b) : "f"(v));
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=f"(c) : "f"(v), "r"(4), "r"(0x101f), "r"(0xffffffff));
  asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(d) : "r"(x));
  asm volatile("shfl.down.b32 %0, %1, 8, 0x1f;" : "=r"(e) : "r"(x));
  return a + b + c + d + e;
}
