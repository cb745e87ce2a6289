// cu2hip-options: --miopen --rocm-version 6.3
#include <cudnn.h>

// cuDNN 7's RNN descriptor calls take the handle, MIOpen's a bias mode; its weight
// gradient takes dw before the workspace.
void rnn(cudnnHandle_t handle, cudnnRNNDescriptor_t rnn, cudnnDropoutDescriptor_t dropout, int seq,
         const cudnnTensorDescriptor_t *xDesc, const float *x, cudnnTensorDescriptor_t hxDesc, const float *hx,
         const cudnnTensorDescriptor_t *yDesc, const float *y, void *workspace, size_t workspace_size,
         cudnnFilterDescriptor_t dwDesc, float *dw, const void *reserve, size_t reserve_size) {
  cudnnSetRNNDescriptor_v6(handle, rnn, 256, 2, dropout, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL, CUDNN_LSTM,
                           CUDNN_RNN_ALGO_STANDARD, CUDNN_DATA_FLOAT);
  int hidden, layers;
  cudnnDropoutDescriptor_t d;
  cudnnRNNInputMode_t input;
  cudnnDirectionMode_t direction;
  cudnnRNNMode_t mode;
  cudnnRNNAlgo_t algo;
  cudnnDataType_t type;
  cudnnGetRNNDescriptor_v6(handle, rnn, &hidden, &layers, &d, &input, &direction, &mode, &algo, &type);
  cudnnRNNBackwardWeights(handle, rnn, seq, xDesc, x, hxDesc, hx, yDesc, y, workspace, workspace_size, dwDesc, dw,
                          reserve, reserve_size);
}
