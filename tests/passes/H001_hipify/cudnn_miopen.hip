// cu2hip-options: --miopen --rocm-version 6.2
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
#include <cstdio>

int describe(hipStream_t s) {
  miopenHandle_t h;
  miopenStatus_t st = miopenCreate(&h);
  if (st != miopenStatusSuccess) {
    printf("%s\n", miopenGetErrorString(st));
    return 1;
  }
  miopenSetStream(h, s);
  miopenTensorDescriptor_t desc;
  miopenCreateTensorDescriptor(&desc);
  // MIOpen has no cudnnSetTensor4dDescriptor (miopenSet4dTensorDescriptor takes no format).
  cudnnSetTensor4dDescriptor(desc, miopenTensorNCHW, miopenFloat, 1, 3, 8, 8);
  miopenDestroyTensorDescriptor(desc);
  miopenDestroy(h);
  return 0;
}
