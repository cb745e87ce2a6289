// shfl over 32-lane segments keeps its width, written out; below HIP 6.2 the full-mask
// *_sync call then becomes the mask-less builtin (H006).
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
