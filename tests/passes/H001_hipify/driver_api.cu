#include <cuda.h>
#include <cstdio>

int run_driver(const void* image, const float* host, size_t bytes) {
  CUresult rc = cuInit(0);
  if (rc != CUDA_SUCCESS) return 1;
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  int max_threads = 0;
  cuDeviceGetAttribute(&max_threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev);
  CUcontext ctx;
  cuCtxCreate(&ctx, 0, dev);
  CUmodule mod;
  cuModuleLoadData(&mod, image);
  CUfunction fn;
  cuModuleGetFunction(&fn, mod, "scale");
  CUdeviceptr buf;
  cuMemAlloc(&buf, bytes);
  cuMemcpyHtoD(buf, host, bytes);
  void* args[] = {&buf};
  rc = cuLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
  if (rc != CUDA_SUCCESS) {
    const char* msg = nullptr;
    cuGetErrorString(rc, &msg);
    fprintf(stderr, "%s\n", msg);
  }
  cuMemFree(buf);
  cuModuleUnload(mod);
  cuCtxDestroy(ctx);
  return max_threads > 0 ? 0 : 1;
}
