// Pinned host buffers (cudaMallocHost and cudaHostAlloc) feeding a chunked
// copy -> kernel -> copy pipeline that alternates between two streams.
#include <cmath>
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

constexpr int kStreams = 2;
constexpr int kChunks = 8;

__global__ void saxpb(const float* x, float* y, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

struct Pipeline {
  cudaStream_t streams[kStreams];
  float* d_x = nullptr;
  float* d_y = nullptr;
};

static void run_pipeline(Pipeline& p, const float* h_x, float* h_y, int n,
                         float a, float b) {
  const int chunk = (n + kChunks - 1) / kChunks;
  for (int c = 0; c < kChunks; ++c) {
    const int offset = c * chunk;
    const int count = (offset + chunk <= n) ? chunk : n - offset;
    if (count <= 0) break;
    cudaStream_t s = p.streams[c % kStreams];
    const size_t bytes = count * sizeof(float);
    CHECK(cudaMemcpyAsync(p.d_x + offset, h_x + offset, bytes,
                          cudaMemcpyHostToDevice, s));
    CHECK(cudaMemsetAsync(p.d_y + offset, 0, bytes, s));
    saxpb<<<(count + 127) / 128, 128, 0, s>>>(p.d_x + offset, p.d_y + offset,
                                               a, b, count);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_y + offset, p.d_y + offset, bytes,
                          cudaMemcpyDeviceToHost, s));
  }
  for (int s = 0; s < kStreams; ++s) CHECK(cudaStreamSynchronize(p.streams[s]));
}

int main() {
  const int n = 1 << 18;
  const float a = 1.5f, b = -0.25f;

  float* h_x = nullptr;
  float* h_y = nullptr;
  CHECK(cudaMallocHost(&h_x, n * sizeof(float)));
  CHECK(cudaHostAlloc((void**)&h_y, n * sizeof(float), cudaHostAllocDefault));
  for (int i = 0; i < n; ++i) {
    h_x[i] = static_cast<float>((i * 7919) % 2048) / 512.0f - 2.0f;
    h_y[i] = NAN;
  }

  Pipeline p;
  for (int s = 0; s < kStreams; ++s)
    CHECK(cudaStreamCreateWithFlags(&p.streams[s], cudaStreamNonBlocking));
  CHECK(cudaMalloc(&p.d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&p.d_y, n * sizeof(float)));

  run_pipeline(p, h_x, h_y, n, a, b);

  // y = a * x + b; the device may fuse it into an fma, so allow 1e-5 relative.
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float want = a * h_x[i] + b;
    const float tol = 1e-5f * (1.0f + std::fabs(want));
    if (!(std::fabs(h_y[i] - want) <= tol)) {
      if (bad < 5) fprintf(stderr, "y[%d] = %g, want %g\n", i, h_y[i], want);
      ++bad;
    }
  }

  for (int s = 0; s < kStreams; ++s) CHECK(cudaStreamDestroy(p.streams[s]));
  CHECK(cudaFree(p.d_x));
  CHECK(cudaFree(p.d_y));
  CHECK(cudaFreeHost(h_x));
  CHECK(cudaFreeHost(h_y));

  if (bad) {
    printf("FAIL: %d of %d values wrong\n", bad, n);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
