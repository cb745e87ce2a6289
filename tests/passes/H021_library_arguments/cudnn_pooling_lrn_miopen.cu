// cu2hip-options: --miopen --rocm-version 6.3
#include <cudnn.h>

// MIOpen's pooling descriptors take no NaN propagation; its LRN descriptor takes the mode.
void describe(cudnnPoolingDescriptor_t pool, cudnnPoolingDescriptor_t poolNd, cudnnLRNDescriptor_t lrn) {
  cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN, 3, 3, 1, 1, 2, 2);
  cudnnPoolingMode_t mode;
  cudnnNanPropagation_t nan;
  int h, w, ph, pw, sh, sw;
  cudnnGetPooling2dDescriptor(pool, &mode, &nan, &h, &w, &ph, &pw, &sh, &sw);
  const int window[3] = {2, 2, 2}, pad[3] = {0, 0, 0}, stride[3] = {2, 2, 2};
  cudnnSetPoolingNdDescriptor(poolNd, CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, CUDNN_NOT_PROPAGATE_NAN, 3,
                              window, pad, stride);
  int dims, windowOut[3], padOut[3], strideOut[3];
  cudnnGetPoolingNdDescriptor(poolNd, 3, &mode, &nan, &dims, windowOut, padOut, strideOut);
  cudnnSetLRNDescriptor(lrn, 5, 1e-4, 0.75, 2.0);
}
