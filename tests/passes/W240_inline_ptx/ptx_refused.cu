// Inline PTX that is not rewritten: each site gets one warning naming its instructions.
#define LANE_ID(out) asm("mov.u32 %0, %%laneid;" : "=r"(out))

__device__ unsigned refused(const float *p, unsigned x, unsigned *flag) {
  unsigned r, lane;
  float v, w;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(r) : "r"(x));
  asm volatile("@p mov.u32 %0, %%laneid;" : "=r"(r));
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane) :: "memory");
  asm("mov.u32 %[out], %%laneid;" : [out] "=r"(lane));
  asm("mov.u32 %0, %%laneid;" : "+r"(lane));
  asm("mov.u32 %0, %%warpid;" : "=r"(r));
  asm volatile("ld.global.nc.v2.f32 {%0, %1}, [%2];" : "=f"(v), "=f"(w) : "l"(p));
  asm volatile("ld.global.nc.f32 %0, [%1+4];" : "=f"(v) : "l"(p));
  asm volatile("shfl.sync.bfly.b32 %0, %1, 4, 0x81f, 0xffffffff;" : "=f"(w) : "f"(v));
  asm volatile("bar.sync 0;");
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("st.global.u32 [%0], %1;" :: "l"(flag), "r"(x) : "memory");
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(v), "+f"(w), "+f"(v), "+f"(w) : "r"(x), "r"(x), "r"(x));
  LANE_ID(lane);
  return r + lane + v + w;
}

#define PTX_LANE "mov.u32 %0, %%laneid;"

__device__ float more_refused(const float *p) {
  unsigned l;
  float v;
  asm(PTX_LANE : "=r"(l));
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v + l;
}
