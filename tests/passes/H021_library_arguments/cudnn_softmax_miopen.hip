// cu2hip-options: --miopen --rocm-version 6.3

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

// MIOpen's softmax takes the algorithm and the mode last.
void softmax(miopenHandle_t handle, miopenTensorDescriptor_t xDesc, const float *x, miopenTensorDescriptor_t yDesc,
             float *y, const float *dy, float *dx) {
  const float alpha = 1.0f, beta = 0.0f;
  miopenSoftmaxForward_V2(handle, &alpha, xDesc, x, &beta,
                      yDesc, y, MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL);
  miopenSoftmaxBackward_V2(handle, &alpha, yDesc, y, yDesc, dy, &beta, xDesc, dx, MIOPEN_SOFTMAX_LOG, MIOPEN_SOFTMAX_MODE_INSTANCE);
}
