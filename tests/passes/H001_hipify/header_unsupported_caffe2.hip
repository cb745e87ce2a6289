#include <hip/hip_runtime.h>
#include "caffe2/core/context_gpu.h"
#include "caffe2/core/hip/common_miopen.h"

__global__ void noop() {}
