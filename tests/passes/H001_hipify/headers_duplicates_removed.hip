#include <hip/hip_runtime.h>
 // driver API


#include <hiprand/hiprand_kernel.h>


__global__ void noop() {}
