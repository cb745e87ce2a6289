// cu2hip-options: --rocm-version 6.3
#include <cuda_runtime.h>
#include <nvrtc.h>

// Added in HIP 6.2 / 5.3: available at ROCm 6.3.
void gated(nvrtcProgram prog, char* cubin, cudaStream_t s, cudaGraph_t g) {
  cudaFunction_t fn;
  cudaGetFuncBySymbol(&fn, (const void*)0);
  cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);
  nvrtcGetCUBIN(prog, cubin);
  // Available since long before: translated.
  cudaStreamSynchronize(s);
}
