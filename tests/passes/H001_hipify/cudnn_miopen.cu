// cu2hip-options: --miopen --rocm-version 6.2
#include <cuda_runtime.h>
#include <cudnn.h>
#include <cstdio>

int describe(cudaStream_t s) {
  cudnnHandle_t h;
  cudnnStatus_t st = cudnnCreate(&h);
  if (st != CUDNN_STATUS_SUCCESS) {
    printf("%s\n", cudnnGetErrorString(st));
    return 1;
  }
  cudnnSetStream(h, s);
  cudnnTensorDescriptor_t desc;
  cudnnCreateTensorDescriptor(&desc);
  // MIOpen has no cudnnSetTensor4dDescriptor (miopenSet4dTensorDescriptor takes no format).
  cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 3, 8, 8);
  cudnnDestroyTensorDescriptor(desc);
  cudnnDestroy(h);
  return 0;
}
