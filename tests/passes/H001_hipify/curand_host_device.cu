#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

// Device API: per-thread state, uniform and normal draws.
__global__ void draw(curandState* states, float* u, float* g, unsigned long long seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, i, 0, &states[i]);
  curandState_t local = states[i];
  u[i] = curand_uniform(&local);
  g[i] = curand_normal(&local);
  states[i] = local;
}

// Host API: a generator filling a device buffer.
curandStatus_t fill_uniform(float* d, size_t n) {
  curandGenerator_t gen;
  curandStatus_t st = curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  if (st != CURAND_STATUS_SUCCESS) return st;
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  st = curandGenerateUniform(gen, d, n);
  curandDestroyGenerator(gen);
  return st;
}
