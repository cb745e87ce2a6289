// cu2hip-options: --rocm-version 6.3
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

// Added in HIP 6.2 / 5.3: available at ROCm 6.3.
void gated(hiprtcProgram prog, char* cubin, hipStream_t s, hipGraph_t g) {
  hipFunction_t fn;
  hipGetFuncBySymbol(&fn, (const void*)0);
  hipStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, hipStreamCaptureModeGlobal);
  hiprtcGetBitcode(prog, cubin);
  // Available since long before: translated.
  hipStreamSynchronize(s);
}
