// Error handling: provoke recoverable errors on purpose (an invalid launch
// configuration, an impossible allocation, a bad device ordinal), inspect them
// with cudaPeekAtLastError / cudaGetLastError / cudaGetErrorName /
// cudaGetErrorString, then show that the context still works.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

static int g_failures = 0;

static void expect(bool ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "expectation failed: %s\n", what);
    ++g_failures;
  }
}

static void report(const char* label, cudaError_t e) {
  printf("%-22s -> %s (%d): %s\n", label, cudaGetErrorName(e), static_cast<int>(e),
         cudaGetErrorString(e));
}

__global__ void fill(int* out, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}

static void bad_launch(int* d, int n) {
  int dev = 0, max_threads = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, dev));
  // Twice the per-block limit: the launch itself must be rejected.
  fill<<<1, 2 * max_threads>>>(d, n, 0);
  cudaError_t peek1 = cudaPeekAtLastError();
  cudaError_t peek2 = cudaPeekAtLastError();  // peeking does not clear
  cudaError_t got = cudaGetLastError();       // this does
  cudaError_t after = cudaGetLastError();
  report("oversized block", got);
  // Older drivers report an oversized block as an invalid configuration; CUDA 13 with
  // driver 580 reports it as an invalid value (seen on an H200).
  const bool launch_rejected = peek1 == cudaErrorInvalidConfiguration || peek1 == cudaErrorInvalidValue;
  expect(launch_rejected, "peek reports the bad launch configuration");
  expect(peek2 == peek1, "second peek sees the same error");
  expect(got == peek1, "cudaGetLastError returns it");
  expect(after == cudaSuccess, "the error is cleared afterwards");
  // A launch error is not sticky: synchronizing succeeds.
  expect(cudaDeviceSynchronize() == cudaSuccess, "device still usable");
}

static void bad_api_calls() {
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, static_cast<size_t>(1) << 60);  // 1 EiB
  report("huge cudaMalloc", e);
  expect(e == cudaErrorMemoryAllocation, "huge allocation fails");
  (void)cudaGetLastError();  // clear the recorded error

  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  e = cudaSetDevice(count);  // one past the last valid ordinal
  report("cudaSetDevice(count)", e);
  expect(e == cudaErrorInvalidDevice, "invalid ordinal rejected");
  (void)cudaGetLastError();
  CHECK(cudaSetDevice(0));

  expect(std::strlen(cudaGetErrorString(cudaSuccess)) > 0, "success has a message");
  expect(std::strlen(cudaGetErrorName(cudaErrorInvalidValue)) > 0, "names exist");
}

static void recover(int* d, int n) {
  fill<<<(n + 127) / 128, 128>>>(d, n, 1000);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int* h = static_cast<int*>(malloc(n * sizeof(int)));
  CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += (h[i] != 1000 + i);
  expect(bad == 0, "kernel after the errors computes correct values");
  free(h);
}

int main() {
  CHECK(cudaSetDevice(0));
  expect(cudaGetLastError() == cudaSuccess, "no error pending at start");
  const int n = 5000;
  int* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(int)));

  bad_launch(d, n);
  bad_api_calls();
  recover(d, n);

  CHECK(cudaFree(d));
  if (g_failures) {
    printf("FAIL: %d expectations failed\n", g_failures);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
