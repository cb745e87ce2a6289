#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                  \
  do {                                                                    \
    cudaError_t err_ = (call);                                            \
    if (err_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
              cudaGetErrorString(err_));                                  \
      exit(EXIT_FAILURE);                                                 \
    }                                                                     \
  } while (0)
#define ALLOC(ptr, n) cudaMalloc((void**)&(ptr), (n) * sizeof(*(ptr)))
#define SYNC() cudaDeviceSynchronize()
#define STREAM_T cudaStream_t
#define COPY_KIND cudaMemcpyHostToDevice

int main() {
  float* d = nullptr;
  STREAM_T s;
  CUDA_CHECK(ALLOC(d, 256));
  CUDA_CHECK(cudaStreamCreate(&s));
  CUDA_CHECK(SYNC());
  return COPY_KIND == cudaMemcpyHostToDevice ? 0 : 1;
}
