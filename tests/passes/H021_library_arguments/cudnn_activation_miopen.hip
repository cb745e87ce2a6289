// cu2hip-options: --miopen --rocm-version 6.3

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

// MIOpen's activation calls take cuDNN's arguments in cuDNN's order: renamed, no H021.
void activate(miopenHandle_t handle, miopenActivationDescriptor_t act, miopenTensorDescriptor_t xDesc,
              const float *x, miopenTensorDescriptor_t yDesc, float *y, const float *dy, float *dx) {
  const float alpha = 1.0f, beta = 0.0f;
  miopenActivationForward(handle, act, &alpha, xDesc, x, &beta, yDesc, y);
  miopenActivationBackward(handle, act, &alpha, yDesc, y, yDesc, dy, xDesc, x, &beta, xDesc, dx);
}
