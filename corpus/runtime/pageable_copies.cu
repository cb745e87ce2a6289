// Host buffers allocated with malloc/new and copied with cudaMemcpy at every iteration
// of a loop (the runtime pass allocates them pinned where nothing can keep the pointer
// and they hold 256 KiB or more: R007), one it must leave pageable because the caller
// frees it (R008), and an
// asynchronous copy of a pageable buffer, which is synchronous (R009, reported).
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

#define STEPS 16
#define ELEMENTS (1 << 16)     // 256 KiB of floats: the smallest size pinning was measured to pay at

__global__ void add_one(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

// Pinned (R007): uploaded, incremented and downloaded at every step, freed once.
static int round_trips(float* d) {
  const int n = ELEMENTS;
  float* h = (float*)malloc(n * sizeof(float));
  if (!h) {
    fprintf(stderr, "out of host memory\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) h[i] = (float)(i % 100);
  for (int step = 0; step < STEPS; ++step) {
    CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    add_one<<<(n + 255) / 256, 256>>>(d, n);
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  }
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] != (float)(i % 100 + STEPS)) ++bad;
  free(h);
  return bad;
}

// Pinned (R007): new[] of floats, uploaded row by row, half a row per copy.
static int rows(float* d, int width) {
  const int n = ELEMENTS;
  float* h = new float[n];
  for (int i = 0; i < n; ++i) h[i] = 2.0f;
  for (int r = 0; r < n / width; ++r) {
    for (int half = 0; half < 2; ++half) {
      CHECK(cudaMemcpy(d + r * width + half * (width / 2), h + r * width + half * (width / 2),
                       (width / 2) * sizeof(float), cudaMemcpyHostToDevice));
    }
  }
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] != 3.0f) ++bad;
  delete[] h;
  return bad;
}

// Pageable (R008): the buffer goes back to the caller, which frees it with free().
static float* download(const float* d, int n) {
  float* h = (float*)malloc(n * sizeof(float));
  for (int step = 0; step < 4; ++step)
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

// R009: cudaMemcpyAsync of a pageable buffer, read by the host right after (correct only
// because the copy is synchronous: the pass leaves the buffer pageable).
static int async_reads(float* d, int n, cudaStream_t s) {
  float* h = (float*)malloc(n * sizeof(float));
  int bad = 0;
  for (int step = 0; step < 4; ++step) {
    add_one<<<(n + 255) / 256, 256, 0, s>>>(d, n);
    CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    if (h[n - 1] != 4.0f + step) ++bad;
  }
  free(h);
  return bad;
}

int main() {
  const int n = ELEMENTS, width = 256;
  float* d;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  int bad = round_trips(d);
  bad += rows(d, width);
  float* back = download(d, n);
  for (int i = 0; i < n; ++i)
    if (back[i] != 3.0f) ++bad;
  free(back);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  bad += async_reads(d, n, s);
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d));
  if (bad) {
    printf("FAIL pageable_copies: %d wrong\n", bad);
    return 1;
  }
  printf("PASS pageable_copies\n");
  return 0;
}
