#include "hip/hip_runtime.h"
#include <hip/hip_runtime_api.h>
#include <hip/hip_fp16.h>
#include "hip/hip_cooperative_groups.h"
#include <vector>
#include "my_kernels.cuh"

__global__ void noop() {}
