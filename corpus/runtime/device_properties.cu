// Device discovery: cudaGetDeviceCount, cudaGetDeviceProperties and
// cudaDeviceGetAttribute must agree with each other and with what a kernel
// observes (warpSize, number of launched threads).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(e_));                                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

static int g_bad = 0;

#define EXPECT(cond)                                                         \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "device %d: check failed: %s\n", dev, #cond);          \
      ++g_bad;                                                               \
    }                                                                        \
  } while (0)

__global__ void probe(int* warp_size_out, unsigned int* thread_count) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *warp_size_out = warpSize;
  atomicAdd(thread_count, 1u);
}

static int attr(cudaDeviceAttr a, int dev) {
  int v = 0;
  CHECK(cudaDeviceGetAttribute(&v, a, dev));
  return v;
}

static void check_device(int dev) {
  CHECK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  printf("device %d: %s, sm_%d%d, %d SMs, %.1f GiB, warp %d\n", dev, prop.name,
         prop.major, prop.minor, prop.multiProcessorCount,
         prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), prop.warpSize);

  const int sms = attr(cudaDevAttrMultiProcessorCount, dev);
  const int max_threads = attr(cudaDevAttrMaxThreadsPerBlock, dev);
  const int warp = attr(cudaDevAttrWarpSize, dev);
  const int major = attr(cudaDevAttrComputeCapabilityMajor, dev);
  const int minor = attr(cudaDevAttrComputeCapabilityMinor, dev);
  const int smem = attr(cudaDevAttrMaxSharedMemoryPerBlock, dev);
  const int max_block_x = attr(cudaDevAttrMaxBlockDimX, dev);
  const int max_grid_x = attr(cudaDevAttrMaxGridDimX, dev);

  EXPECT(sms == prop.multiProcessorCount);
  EXPECT(max_threads == prop.maxThreadsPerBlock);
  EXPECT(warp == prop.warpSize);
  EXPECT(major == prop.major && minor == prop.minor);
  EXPECT(static_cast<size_t>(smem) == prop.sharedMemPerBlock);
  EXPECT(max_block_x == prop.maxThreadsDim[0]);
  EXPECT(max_grid_x == prop.maxGridSize[0]);

  EXPECT(sms > 0);
  EXPECT(max_threads >= 256 && (max_threads & (max_threads - 1)) == 0);
  EXPECT(warp == 32 || warp == 64);
  EXPECT(major >= 3);
  EXPECT(smem >= 16 * 1024);
  EXPECT(prop.totalGlobalMem > (static_cast<size_t>(256) << 20));
  EXPECT(prop.totalConstMem >= 32 * 1024);
  EXPECT(prop.regsPerBlock > 0);

  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  EXPECT(free_b <= total_b && total_b > 0);

  // What a kernel sees must match: warpSize, and exactly grid*block threads.
  int* d_warp = nullptr;
  unsigned int* d_count = nullptr;
  CHECK(cudaMalloc(&d_warp, sizeof(int)));
  CHECK(cudaMalloc(&d_count, sizeof(unsigned int)));
  CHECK(cudaMemset(d_count, 0, sizeof(unsigned int)));
  const int blocks = 2 * sms;
  probe<<<blocks, max_threads>>>(d_warp, d_count);
  CHECK(cudaGetLastError());
  int seen_warp = 0;
  unsigned int seen_count = 0;
  CHECK(cudaMemcpy(&seen_warp, d_warp, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&seen_count, d_count, sizeof(unsigned int), cudaMemcpyDeviceToHost));
  EXPECT(seen_warp == prop.warpSize);
  EXPECT(seen_count == static_cast<unsigned int>(blocks) * max_threads);
  CHECK(cudaFree(d_warp));
  CHECK(cudaFree(d_count));
}

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  if (count < 1) {
    printf("FAIL: no CUDA device\n");
    return 1;
  }
  int driver = 0, runtime = 0;
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  printf("%d device(s), driver %d, runtime %d\n", count, driver, runtime);
  if (driver <= 0 || runtime <= 0) {
    printf("FAIL: bad version numbers\n");
    return 1;
  }

  for (int dev = 0; dev < count; ++dev) check_device(dev);
  CHECK(cudaSetDevice(0));
  int current = -1;
  CHECK(cudaGetDevice(&current));
  if (current != 0) ++g_bad;

  if (g_bad) {
    printf("FAIL: %d checks failed\n", g_bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
