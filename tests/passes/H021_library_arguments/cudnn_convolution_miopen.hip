// cu2hip-options: --miopen --rocm-version 6.3

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

// MIOpen takes the weights before the data in its workspace queries (and no algorithm),
// the workspace last in the convolutions, and an exhaustive-search flag in the find.
size_t forward(miopenHandle_t handle, miopenTensorDescriptor_t xDesc, const float *x, miopenTensorDescriptor_t wDesc,
               const float *w, miopenConvolutionDescriptor_t convDesc, miopenTensorDescriptor_t yDesc, float *y,
               miopenConvFwdAlgorithm_t algo, void *workspace, size_t workspace_size,
               miopenConvAlgoPerf_t *perf, int *returned) {
  size_t size = 0;
  miopenConvolutionForwardGetWorkSpaceSize(handle, wDesc, xDesc, convDesc, yDesc, &size);
  miopenFindConvolutionForwardAlgorithm(handle, xDesc, x, wDesc, w, convDesc, yDesc, y, 1, returned, perf,
                                         workspace, workspace_size, true);
  const float alpha = 1.0f, beta = 0.0f;
  miopenConvolutionForward(handle, &alpha, xDesc, x, wDesc, w, convDesc, algo, &beta,
                          yDesc, y, workspace, workspace_size);
  return size;
}

size_t backward_data(miopenHandle_t handle, miopenTensorDescriptor_t wDesc, const float *w,
                     miopenTensorDescriptor_t dyDesc, const float *dy, miopenConvolutionDescriptor_t convDesc,
                     miopenTensorDescriptor_t dxDesc, float *dx, miopenConvBwdDataAlgorithm_t algo,
                     void *workspace, size_t workspace_size) {
  size_t size = 0;
  miopenConvolutionBackwardDataGetWorkSpaceSize(handle, dyDesc, wDesc, convDesc, dxDesc, &size);
  const float alpha = 1.0f, beta = 0.0f;
  miopenConvolutionBackwardData(handle, &alpha, dyDesc, dy, wDesc, w, convDesc, algo, &beta, dxDesc, dx, workspace, workspace_size);
  return size;
}
