// Device-wide synchronisation where main's work is all on one stream it creates (the
// runtime pass waits for that stream instead: R010), a bare one right before another
// (removed: R011), and one after a copy on the default stream (reported, R006).
// Self-checking: prints PASS and exits 0 when every result is right.
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t err_ = (call);                                                       \
    if (err_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
      exit(2);                                                                       \
    }                                                                                \
  } while (0)

__global__ void add_one(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  const int n = 1 << 16;
  int bad = 0;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  float* d;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  float* h = nullptr;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMemsetAsync(d, 0, n * sizeof(float), s));
  for (int step = 0; step < 8; ++step) {
    add_one<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaDeviceSynchronize());           // R010: waits for s
    if (h[0] != step + 1.0f || h[n - 1] != step + 1.0f) ++bad;
  }
  scale<<<(n + 255) / 256, 256, 0, s>>>(d, 2.0f, n);
  cudaDeviceSynchronize();                    // R011: the next line waits again
  CHECK(cudaDeviceSynchronize());             // R010
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i)
    if (h[i] != 16.0f) ++bad;
  // From here a copy on the default stream came before: every later one stays (R006).
  CHECK(cudaMemset(d, 0, n * sizeof(float)));
  add_one<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i)
    if (h[i] != 1.0f) ++bad;
  CHECK(cudaFreeHost(h));
  CHECK(cudaFree(d));
  CHECK(cudaStreamDestroy(s));
  if (bad) {
    printf("FAIL stream_sync: %d wrong\n", bad);
    return 1;
  }
  printf("PASS stream_sync\n");
  return 0;
}
