// cu2hip-options: --miopen --rocm-version 6.3
#include <cudnn.h>

// MIOpen takes the weights before the data in its workspace queries (and no algorithm),
// the workspace last in the convolutions, and an exhaustive-search flag in the find.
size_t forward(cudnnHandle_t handle, cudnnTensorDescriptor_t xDesc, const float *x, cudnnFilterDescriptor_t wDesc,
               const float *w, cudnnConvolutionDescriptor_t convDesc, cudnnTensorDescriptor_t yDesc, float *y,
               cudnnConvolutionFwdAlgo_t algo, void *workspace, size_t workspace_size,
               cudnnConvolutionFwdAlgoPerf_t *perf, int *returned) {
  size_t size = 0;
  cudnnGetConvolutionForwardWorkspaceSize(handle, xDesc, wDesc, convDesc, yDesc, algo, &size);
  cudnnFindConvolutionForwardAlgorithmEx(handle, xDesc, x, wDesc, w, convDesc, yDesc, y, 1, returned, perf,
                                         workspace, workspace_size);
  const float alpha = 1.0f, beta = 0.0f;
  cudnnConvolutionForward(handle, &alpha, xDesc, x, wDesc, w, convDesc, algo, workspace, workspace_size, &beta,
                          yDesc, y);
  return size;
}

size_t backward_data(cudnnHandle_t handle, cudnnFilterDescriptor_t wDesc, const float *w,
                     cudnnTensorDescriptor_t dyDesc, const float *dy, cudnnConvolutionDescriptor_t convDesc,
                     cudnnTensorDescriptor_t dxDesc, float *dx, cudnnConvolutionBwdDataAlgo_t algo,
                     void *workspace, size_t workspace_size) {
  size_t size = 0;
  cudnnGetConvolutionBackwardDataWorkspaceSize(handle, wDesc, dyDesc, convDesc, dxDesc, algo, &size);
  const float alpha = 1.0f, beta = 0.0f;
  cudnnConvolutionBackwardData(handle, &alpha, wDesc, w, dyDesc, dy, convDesc, algo, workspace, workspace_size,
                               &beta, dxDesc, dx);
  return size;
}
