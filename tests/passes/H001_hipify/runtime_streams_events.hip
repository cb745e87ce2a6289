#include <hip/hip_runtime.h>

float time_copy(float* d, const float* h, size_t bytes) {
  hipStream_t stream;
  hipStreamCreateWithFlags(&stream, hipStreamNonBlocking);
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  hipEventRecord(start, stream);
  hipMemcpyAsync(d, h, bytes, hipMemcpyHostToDevice, stream);
  hipEventRecord(stop, stream);
  hipEventSynchronize(stop);
  float ms = 0.0f;
  hipEventElapsedTime(&ms, start, stop);
  hipStreamSynchronize(stream);
  hipEventDestroy(start);
  hipEventDestroy(stop);
  hipStreamDestroy(stream);
  return ms;
}
