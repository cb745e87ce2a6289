// cu2hip-options: --ignore L
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

// The assigned type is unknown (a template parameter, a type of another file), or the
// list holds values whose conversions decide CUDA's choice: a warning, no edit.
template <typename V>
__device__ void clear(V& v) { v = {}; }

__device__ void fill(half2& h, float a) {
  clear(h);
  h = {a, a};
}
