// cu2hip-options: --miopen --rocm-version 6.3

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

// cuDNN 7's RNN descriptor calls take the handle, MIOpen's a bias mode; its weight
// gradient takes dw before the workspace.
void rnn(miopenHandle_t handle, miopenRNNDescriptor_t rnn, miopenDropoutDescriptor_t dropout, int seq,
         const miopenTensorDescriptor_t *xDesc, const float *x, miopenTensorDescriptor_t hxDesc, const float *hx,
         const miopenTensorDescriptor_t *yDesc, const float *y, void *workspace, size_t workspace_size,
         miopenTensorDescriptor_t dwDesc, float *dw, const void *reserve, size_t reserve_size) {
  miopenSetRNNDescriptor_V2(rnn, 256, 2, dropout, miopenRNNlinear, miopenRNNunidirection, miopenLSTM,
                           miopenRNNwithBias, miopenRNNdefault, miopenFloat);
  int hidden, layers;
  miopenDropoutDescriptor_t d;
  miopenRNNInputMode_t input;
  miopenRNNDirectionMode_t direction;
  miopenRNNMode_t mode;
  miopenRNNAlgo_t algo;
  miopenDataType_t type;
  cudnnGetRNNDescriptor_v6(handle, rnn, &hidden, &layers, &d, &input, &direction, &mode, &algo, &type);
  miopenRNNBackwardWeights(handle, rnn, seq, xDesc, x, hxDesc, hx, yDesc, y, dwDesc, dw, workspace, workspace_size, reserve, reserve_size);
}
