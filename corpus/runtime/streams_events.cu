// Streams and events: a producer stream and a consumer stream ordered by an
// event (cudaStreamWaitEvent), timing events around the whole exchange, and
// stream priorities.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
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

// Deliberately does a little busy work so the consumer would see stale data
// if the event dependency were missing.
__global__ void produce(int* a, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = i;
    for (int k = 0; k < iters; ++k) v = (v * 5 + 3) % 65521;
    a[i] = v;
  }
}

__global__ void consume(const int* a, int* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] + 1;
}

static int host_produce(int i, int iters) {
  int v = i;
  for (int k = 0; k < iters; ++k) v = (v * 5 + 3) % 65521;
  return v;
}

int main() {
  const int n = 1 << 16;
  const int iters = 200;
  const size_t bytes = n * sizeof(int);

  int least = 0, greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));

  cudaStream_t producer, consumer;
  CHECK(cudaStreamCreateWithPriority(&producer, cudaStreamNonBlocking, greatest));
  CHECK(cudaStreamCreate(&consumer));

  cudaEvent_t start, stop, ready;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));

  int *d_a = nullptr, *d_b = nullptr;
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMemsetAsync(d_a, 0, bytes, producer));

  const dim3 block(256);
  const dim3 grid((n + block.x - 1) / block.x);

  CHECK(cudaEventRecord(start, producer));
  produce<<<grid, block, 0, producer>>>(d_a, n, iters);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ready, producer));

  CHECK(cudaStreamWaitEvent(consumer, ready, 0));
  consume<<<grid, block, 0, consumer>>>(d_a, d_b, n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop, consumer));

  std::vector<int> h_b(n);
  CHECK(cudaMemcpyAsync(h_b.data(), d_b, bytes, cudaMemcpyDeviceToHost, consumer));
  CHECK(cudaStreamSynchronize(consumer));
  CHECK(cudaEventSynchronize(stop));

  int bad = 0;
  // Both streams must be idle now: the consumer was synchronized and the
  // producer's last work is what the consumer waited for.
  CHECK(cudaStreamSynchronize(producer));
  if (cudaStreamQuery(producer) != cudaSuccess ||
      cudaStreamQuery(consumer) != cudaSuccess) {
    fprintf(stderr, "a stream still reports pending work\n");
    ++bad;
  }
  if (cudaEventQuery(ready) != cudaSuccess || cudaEventQuery(stop) != cudaSuccess) {
    fprintf(stderr, "an event has not completed\n");
    ++bad;
  }

  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  if (!(ms >= 0.0f) || !std::isfinite(ms)) {
    fprintf(stderr, "elapsed time %f ms is not sane\n", ms);
    ++bad;
  }

  for (int i = 0; i < n; ++i) {
    int want = host_produce(i, iters) + 1;
    if (h_b[i] != want) {
      if (bad < 5) fprintf(stderr, "b[%d] = %d, want %d\n", i, h_b[i], want);
      ++bad;
    }
  }

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(ready));
  CHECK(cudaStreamDestroy(producer));
  CHECK(cudaStreamDestroy(consumer));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));

  if (bad) {
    printf("FAIL: %d errors\n", bad);
    return 1;
  }
  printf("elapsed %.3f ms\n", ms);
  printf("PASS\n");
  return 0;
}
