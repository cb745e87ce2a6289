#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                  \
  do {                                                                    \
    hipError_t err_ = (call);                                            \
    if (err_ != hipSuccess) {                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
              hipGetErrorString(err_));                                  \
      exit(EXIT_FAILURE);                                                 \
    }                                                                     \
  } while (0)
#define ALLOC(ptr, n) hipMalloc((void**)&(ptr), (n) * sizeof(*(ptr)))
#define SYNC() hipDeviceSynchronize()
#define STREAM_T hipStream_t
#define COPY_KIND hipMemcpyHostToDevice

int main() {
  float* d = nullptr;
  STREAM_T s;
  CUDA_CHECK(ALLOC(d, 256));
  CUDA_CHECK(hipStreamCreate(&s));
  CUDA_CHECK(SYNC());
  return COPY_KIND == hipMemcpyHostToDevice ? 0 : 1;
}
