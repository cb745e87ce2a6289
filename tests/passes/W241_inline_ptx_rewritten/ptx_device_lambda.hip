#include <hip/hip_runtime.h>
// An asm in a __device__ lambda is device code, even inside a host function (the parser
// does not know the lambda's __device__: P001 says so; the asm itself parses).
void host(unsigned *out);
__global__ void apply(unsigned *out);

void host(unsigned *out) {
  auto read = [=] __device__ (int k) -> unsigned { unsigned l; l = __lane_id(); return l + k; };
  (void)read;
  (void)out;
}
