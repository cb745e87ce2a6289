// cu2hip-options: --miopen --rocm-version 6.3
#include <cudnn.h>

// MIOpen's activation calls take cuDNN's arguments in cuDNN's order: renamed, no H021.
void activate(cudnnHandle_t handle, cudnnActivationDescriptor_t act, cudnnTensorDescriptor_t xDesc,
              const float *x, cudnnTensorDescriptor_t yDesc, float *y, const float *dy, float *dx) {
  const float alpha = 1.0f, beta = 0.0f;
  cudnnActivationForward(handle, act, &alpha, xDesc, x, &beta, yDesc, y);
  cudnnActivationBackward(handle, act, &alpha, yDesc, y, yDesc, dy, xDesc, x, &beta, xDesc, dx);
}
