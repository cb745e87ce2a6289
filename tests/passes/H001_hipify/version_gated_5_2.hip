#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

// Added in HIP 6.2 / 5.3: not available at the default target, ROCm 5.2.
void gated(hiprtcProgram prog, char* cubin, hipStream_t s, hipGraph_t g) {
  hipFunction_t fn;
  cudaGetFuncBySymbol(&fn, (const void*)0);
  cudaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, hipStreamCaptureModeGlobal);
  nvrtcGetCUBIN(prog, cubin);
  // Available since long before: translated.
  hipStreamSynchronize(s);
}
