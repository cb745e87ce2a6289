#include <hip/hip_runtime.h>
#include <cstdio>

int run_driver(const void* image, const float* host, size_t bytes) {
  hipError_t rc = hipInit(0);
  if (rc != hipSuccess) return 1;
  hipDevice_t dev;
  hipDeviceGet(&dev, 0);
  int max_threads = 0;
  hipDeviceGetAttribute(&max_threads, hipDeviceAttributeMaxThreadsPerBlock, dev);
  hipCtx_t ctx;
  hipCtxCreate(&ctx, 0, dev);
  hipModule_t mod;
  hipModuleLoadData(&mod, image);
  hipFunction_t fn;
  hipModuleGetFunction(&fn, mod, "scale");
  hipDeviceptr_t buf;
  hipMalloc(&buf, bytes);
  hipMemcpyHtoD(buf, host, bytes);
  void* args[] = {&buf};
  rc = hipModuleLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
  if (rc != hipSuccess) {
    const char* msg = nullptr;
    cuGetErrorString(rc, &msg);
    fprintf(stderr, "%s\n", msg);
  }
  hipFree(buf);
  hipModuleUnload(mod);
  hipCtxDestroy(ctx);
  return max_threads > 0 ? 0 : 1;
}
