// `atomic*_block`: CUDA's block-scoped atomics; HIP has none, HIPIFY's tables list
// none. A function of the file's own with the same shape is not reported.
__device__ int atomicClamp_block(int *p, int hi) { return atomicMin(p, hi); }

__global__ void count(int *p) {
  atomicAdd_block(p, 1);
  atomicCAS_block(p, 1, 2);
  atomicClamp_block(p, 8);
  atomicAdd(p, 1);
}
