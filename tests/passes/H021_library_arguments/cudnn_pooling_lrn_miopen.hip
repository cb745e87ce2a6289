// cu2hip-options: --miopen --rocm-version 6.3

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

// MIOpen's pooling descriptors take no NaN propagation; its LRN descriptor takes the mode.
void describe(miopenPoolingDescriptor_t pool, miopenPoolingDescriptor_t poolNd, miopenLRNDescriptor_t lrn) {
  miopenSet2dPoolingDescriptor(pool, miopenPoolingMax, 3, 3, 1, 1, 2, 2);
  miopenPoolingMode_t mode;
  miopenNanPropagation_t nan;
  int h, w, ph, pw, sh, sw;
  miopenGet2dPoolingDescriptor(pool, &mode, &h, &w, &ph, &pw, &sh, &sw);
  const int window[3] = {2, 2, 2}, pad[3] = {0, 0, 0}, stride[3] = {2, 2, 2};
  miopenSetNdPoolingDescriptor(poolNd, miopenPoolingAverageInclusive, 3,
                              window, pad, stride);
  int dims, windowOut[3], padOut[3], strideOut[3];
  miopenGetNdPoolingDescriptor(poolNd, 3, &mode, &dims, windowOut, padOut, strideOut);
  miopenSetLRNDescriptor(lrn, miopenLRNCrossChannel, 5, 1e-4, 0.75, 2.0);
}
