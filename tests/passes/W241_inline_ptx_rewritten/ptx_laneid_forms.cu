// %laneid read by every spelling of an asm statement: each becomes an assignment of __lane_id().
struct Slot { unsigned lane; };

__device__ unsigned lane_a() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

__device__ int lane_b(int *where, Slot *slot, int i) {
  int l;
  asm volatile("mov.s32 %0, %%laneid;" : "=r"(l));
  __asm__ __volatile__("mov.b32 %0, %%laneid;" : "=r"(where[i]));
  __asm__("mov.u32 %0, "
          "%%laneid;\n\t" : "=r"(slot->lane));
  asm volatile ("mov.u32 %0, %%laneid;" : "=r"(*where) :: "cc");
  asm("mov.u32 %0, " "%%" "laneid;" : "=r"(where[i + 1]));
  return l;
}

__global__ void lanes(unsigned *out) {
  out[threadIdx.x] = lane_a();
}
