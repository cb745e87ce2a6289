#include <cuda_runtime.h>
#include "caffe2/core/context_gpu.h"
#include "caffe2/core/common_cudnn.h"

__global__ void noop() {}
