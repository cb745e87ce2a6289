// cu2hip-options: --hip-kernel-execution-syntax --only hipify
#include <hip/hip_runtime.h>

template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
template <typename T, int kTile>
__global__ void tile_sum(const T* in, T* out) {
  extern __shared__ unsigned char smem[];
  (void)smem;
}
__global__ void tick() {}

// A template kernel whose argument is a macro parameter.
#define LAUNCH_AXPY(T, n, ...) hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy<T>), dim3(((n) + 255) / 256), dim3(256), 0, 0, __VA_ARGS__)
// Two template arguments: HIP_KERNEL_NAME keeps the comma out of hipLaunchKernelGGL's.
#define LAUNCH_TILE(T, in, out, s) hipLaunchKernelGGL(HIP_KERNEL_NAME(tile_sum<T, 64>), dim3(1), dim3(64), 64 * sizeof(T), s, in, out)
// A body over several lines, the configuration split by a line splice, with dynamic
// shared memory and a stream from the parameters.
#define LAUNCH_1D(kernel, n, shmem, stream, ...)   \
  do {                                              \
    hipLaunchKernelGGL(kernel, dim3(((n) + 127) / 128), dim3(128),                \
             (shmem), (stream), __VA_ARGS__);     \
  } while (0)
// A kernel without arguments: nothing follows the stream.
#define TICK(n) hipLaunchKernelGGL(tick, dim3(1), dim3((n)), 0, 0)
// The kernel spelled through another macro.
#define KERNEL_OF(T) axpy<T>
#define LAUNCH_VIA(T, n, ...) hipLaunchKernelGGL(KERNEL_OF(T), dim3(1), dim3((n)), 0, 0, __VA_ARGS__)
// A body that launches through the macro its parameter names: no <<< here; the launch
// is rewritten in that macro's own definition.
#define WITH(LAUNCHER, ...) LAUNCHER(__VA_ARGS__)

void run(const float* x, float* y, const double* dx, double* dy, int n, hipStream_t s) {
  LAUNCH_AXPY(float, n, 2.0f, x, y, n);
  LAUNCH_TILE(double, dx, dy, s);
  LAUNCH_1D(axpy<double>, n, 0, s, 3.0, dx, dy, n);
  TICK(32);
  LAUNCH_VIA(float, 64, 1.0f, x, y, n);
  WITH(TICK, 64);
}
