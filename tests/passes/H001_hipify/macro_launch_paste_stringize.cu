// cu2hip-options: --hip-kernel-execution-syntax --only hipify
#include <cuda_runtime.h>
#include <cstdio>

__global__ void scale_kernel(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}
__global__ void shift_kernel(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += s;
}
__global__ void flag(int* f, int on) { *f = on; }
__global__ void raise(int* f) { *f = 1; }

// `##` forms the kernel's name; `#` names it in a message. Both read as C++ for the
// parse, so the launch is rewritten in the definition.
#define LAUNCH_OP(op, n, ...) op##_kernel<<<((n) + 255) / 256, 256>>>(__VA_ARGS__)
#define TRACED(kern, n, ...)                              \
  do {                                                     \
    std::printf("launch " #kern " on %d elements\n", (n)); \
    kern<<<((n) + 255) / 256, 256>>>(__VA_ARGS__);         \
  } while (0)
// GNU's `, ##__VA_ARGS__` drops the comma when no argument follows.
#define LAUNCH_OPT(kern, f, ...) kern<<<1, 32>>>(f, ##__VA_ARGS__)
// A `#` or `##` in a string or a comment is no operator: "##" # ##
#define NOTE_LAUNCH(kern) std::printf("## %s\n", #kern); kern<<<1, 1>>>(nullptr, 0.0f, 0)

void run(float* x, int* f, int n) {
  LAUNCH_OP(scale, n, x, 2.0f, n);
  LAUNCH_OP(shift, n, x, 1.0f, n);
  TRACED(scale_kernel, n, x, 0.5f, n);
  NOTE_LAUNCH(shift_kernel);
  LAUNCH_OPT(flag, f, 1);
  LAUNCH_OPT(raise, f);
}
