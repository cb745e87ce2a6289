// cu2hip-options: --target cuda
// A macro named like a shuffle builtin whose body calls a function of the program: no
// width can be added to the call or to the body; reported.
__device__ int down_of(int v, int d);
#define __shfl_down(v, d) down_of(v, d)
__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  return v;
}
