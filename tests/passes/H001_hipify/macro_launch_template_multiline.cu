// cu2hip-options: --hip-kernel-execution-syntax --only hipify
#include <cuda_runtime.h>

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
#define LAUNCH_AXPY(T, n, ...) axpy<T><<<((n) + 255) / 256, 256>>>(__VA_ARGS__)
// Two template arguments: HIP_KERNEL_NAME keeps the comma out of hipLaunchKernelGGL's.
#define LAUNCH_TILE(T, in, out, s) tile_sum<T, 64><<<1, 64, 64 * sizeof(T), s>>>(in, out)
// A body over several lines, the configuration split by a line splice, with dynamic
// shared memory and a stream from the parameters.
#define LAUNCH_1D(kernel, n, shmem, stream, ...)   \
  do {                                              \
    kernel<<<((n) + 127) / 128, 128,                \
             (shmem), (stream)>>>(__VA_ARGS__);     \
  } while (0)
// A kernel without arguments: nothing follows the stream.
#define TICK(n) tick<<<1, (n)>>>()
// The kernel spelled through another macro.
#define KERNEL_OF(T) axpy<T>
#define LAUNCH_VIA(T, n, ...) KERNEL_OF(T)<<<1, (n)>>>(__VA_ARGS__)
// A body that launches through the macro its parameter names: no <<< here; the launch
// is rewritten in that macro's own definition.
#define WITH(LAUNCHER, ...) LAUNCHER(__VA_ARGS__)

void run(const float* x, float* y, const double* dx, double* dy, int n, cudaStream_t s) {
  LAUNCH_AXPY(float, n, 2.0f, x, y, n);
  LAUNCH_TILE(double, dx, dy, s);
  LAUNCH_1D(axpy<double>, n, 0, s, 3.0, dx, dy, n);
  TICK(32);
  LAUNCH_VIA(float, 64, 1.0f, x, y, n);
  WITH(TICK, 64);
}
