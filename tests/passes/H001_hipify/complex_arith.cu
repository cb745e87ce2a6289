#include <cuda_runtime.h>
#include <cuComplex.h>

__device__ cuFloatComplex mul_add(cuFloatComplex a, cuFloatComplex b, cuFloatComplex c) {
  return cuCaddf(cuCmulf(a, b), c);
}

__host__ __device__ double magnitude(cuDoubleComplex z) { return cuCabs(z); }

cuFloatComplex unit() { return make_cuFloatComplex(1.0f, 0.0f); }
cuComplex conjugate(cuComplex z) { return cuConjf(z); }
float real_part(cuFloatComplex z) { return cuCrealf(z) + cuCimagf(z) * 0.0f; }
