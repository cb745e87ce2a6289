#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>
#include <cstdio>

// The kernel source is a string: it is compiled at run time, never translated here.
const char* kSource = "extern \"C\" __global__ void scale(float* a) { a[threadIdx.x] *= 2.0f; }";

int compile(char** code, size_t* size) {
  hiprtcProgram prog;
  hiprtcResult r = hiprtcCreateProgram(&prog, kSource, "scale.cu", 0, nullptr, nullptr);
  if (r != HIPRTC_SUCCESS) return 1;
  r = hiprtcCompileProgram(prog, 0, nullptr);
  if (r != HIPRTC_SUCCESS) {
    size_t log_size = 0;
    hiprtcGetProgramLogSize(prog, &log_size);
    fprintf(stderr, "%s\n", hiprtcGetErrorString(r));
  }
  hiprtcGetCodeSize(prog, size);
  *code = new char[*size];
  hiprtcGetCode(prog, *code);
  hiprtcDestroyProgram(&prog);
  return 0;
}
