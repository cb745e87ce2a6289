#include <cuda_runtime.h>
#include <cuda.h> // driver API
#include <device_launch_parameters.h>
#include "cuda_runtime.h"
#include <curand_kernel.h>
#include <curand_normal.h>

__global__ void noop() {}
