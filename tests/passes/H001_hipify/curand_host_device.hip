#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>

// Device API: per-thread state, uniform and normal draws.
__global__ void draw(hiprandState* states, float* u, float* g, unsigned long long seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  hiprand_init(seed, i, 0, &states[i]);
  hiprandState_t local = states[i];
  u[i] = hiprand_uniform(&local);
  g[i] = hiprand_normal(&local);
  states[i] = local;
}

// Host API: a generator filling a device buffer.
hiprandStatus_t fill_uniform(float* d, size_t n) {
  hiprandGenerator_t gen;
  hiprandStatus_t st = hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT);
  if (st != HIPRAND_STATUS_SUCCESS) return st;
  hiprandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  st = hiprandGenerateUniform(gen, d, n);
  hiprandDestroyGenerator(gen);
  return st;
}
