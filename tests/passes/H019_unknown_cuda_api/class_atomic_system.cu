// `atomic*_system`: HIP has nine of CUDA's eleven system-scope atomics; the other two
// are reported. A function of the file's own with the same shape is not.
__device__ unsigned atomicWrap_system(unsigned *p) { return atomicAdd_system(p, 1u); }

__global__ void ring(unsigned *p) {
  atomicInc_system(p, 7u);
  atomicDec_system(p, 7u);
  atomicOr_system(p, 1u);
  atomicWrap_system(p);
}
