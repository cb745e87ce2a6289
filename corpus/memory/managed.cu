// Unified (managed) memory: a small cudaMallocManaged buffer that host and
// device take turns updating, plus a __managed__ counter.
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

__device__ __managed__ unsigned int g_even_count;

__global__ void step(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = data[i] * 2 + i;
    data[i] = v;
    if ((v & 1) == 0) atomicAdd(&g_even_count, 1u);
  }
}

int main() {
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  int managed_ok = 0;
  CHECK(cudaDeviceGetAttribute(&managed_ok, cudaDevAttrManagedMemory, dev));
  if (!managed_ok) {
    printf("FAIL: device %d does not support managed memory\n", dev);
    return 1;
  }

  const int n = 4096;  // 16 KiB of managed memory
  const int rounds = 3;
  int* data = nullptr;
  CHECK(cudaMallocManaged(&data, n * sizeof(int), cudaMemAttachGlobal));

  int* ref = static_cast<int*>(malloc(n * sizeof(int)));
  for (int i = 0; i < n; ++i) data[i] = ref[i] = (i % 13) - 6;

  unsigned int want_even = 0;
  g_even_count = 0;
  for (int r = 0; r < rounds; ++r) {
    step<<<(n + 255) / 256, 256>>>(data, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());  // required before the host touches data
    for (int i = 0; i < n; ++i) {
      ref[i] = ref[i] * 2 + i;
      if ((ref[i] & 1) == 0) ++want_even;
    }
    // The host edits the managed buffer between kernel launches.
    for (int i = 0; i < n; i += 64) {
      data[i] -= 1;
      ref[i] -= 1;
    }
  }

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (data[i] != ref[i]) {
      if (bad < 5) fprintf(stderr, "data[%d] = %d, want %d\n", i, data[i], ref[i]);
      ++bad;
    }
  }
  if (g_even_count != want_even) {
    fprintf(stderr, "even count %u, want %u\n", g_even_count, want_even);
    ++bad;
  }

  CHECK(cudaFree(data));
  free(ref);
  if (bad) {
    printf("FAIL: %d errors\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
