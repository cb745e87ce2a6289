#include <hip/hip_runtime.h>
#include <hip/hip_complex.h>

__device__ hipFloatComplex mul_add(hipFloatComplex a, hipFloatComplex b, hipFloatComplex c) {
  return hipCaddf(hipCmulf(a, b), c);
}

__host__ __device__ double magnitude(hipDoubleComplex z) { return hipCabs(z); }

hipFloatComplex unit() { return make_hipFloatComplex(1.0f, 0.0f); }
hipComplex conjugate(hipComplex z) { return hipConjf(z); }
float real_part(hipFloatComplex z) { return hipCrealf(z) + hipCimagf(z) * 0.0f; }
