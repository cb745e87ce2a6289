// cu2hip-options: --target cuda --ignore L
// 32 as a tile edge, a word width, hash bits and a block shape, in a file whose warp code
// uses warpSize: none of it is lane arithmetic, and nothing is touched or reported.
#define TILE_DIM 32

__device__ unsigned mix(unsigned k) { return k ^ (k >> 16); }

__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[x * n + y] = tile[threadIdx.x][threadIdx.y];
}

__global__ void bitset(const unsigned *keys, unsigned *bits, unsigned *bins, float *sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned k = keys[i];
  atomicOr(&bits[k >> 5], 1u << (k & 31));
  atomicAdd(&bins[(mix(k) >> 5) & 31], 1u);
  float v = k;
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x % warpSize == 0) sums[i / warpSize] = v;
}

void launch(const float *in, float *out, int n) {
  transpose<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(in, out, n);
}
