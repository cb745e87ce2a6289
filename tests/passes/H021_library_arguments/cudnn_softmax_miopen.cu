// cu2hip-options: --miopen --rocm-version 6.3
#include <cudnn.h>

// MIOpen's softmax takes the algorithm and the mode last.
void softmax(cudnnHandle_t handle, cudnnTensorDescriptor_t xDesc, const float *x, cudnnTensorDescriptor_t yDesc,
             float *y, const float *dy, float *dx) {
  const float alpha = 1.0f, beta = 0.0f;
  cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &alpha, xDesc, x, &beta,
                      yDesc, y);
  cudnnSoftmaxBackward(handle, CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE,
                       &alpha, yDesc, y, yDesc, dy, &beta, xDesc, dx);
}
