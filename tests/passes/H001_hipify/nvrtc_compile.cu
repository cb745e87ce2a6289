#include <cuda.h>
#include <nvrtc.h>
#include <cstdio>

// The kernel source is a string: it is compiled at run time, never translated here.
const char* kSource = "extern \"C\" __global__ void scale(float* a) { a[threadIdx.x] *= 2.0f; }";

int compile(char** code, size_t* size) {
  nvrtcProgram prog;
  nvrtcResult r = nvrtcCreateProgram(&prog, kSource, "scale.cu", 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS) return 1;
  r = nvrtcCompileProgram(prog, 0, nullptr);
  if (r != NVRTC_SUCCESS) {
    size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    fprintf(stderr, "%s\n", nvrtcGetErrorString(r));
  }
  nvrtcGetPTXSize(prog, size);
  *code = new char[*size];
  nvrtcGetPTX(prog, *code);
  nvrtcDestroyProgram(&prog);
  return 0;
}
