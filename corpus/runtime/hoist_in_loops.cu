// Allocation, pinned staging and a stream with its event made and released at every
// iteration of host loops (the runtime pass hoists each pair out of its loop: R001,
// R003), and an error check that synchronises the device after every launch (R005,
// reported). Self-checking: prints PASS and exits 0 when every result is right.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t err_ = (call);                                                       \
    if (err_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
      exit(2);                                                                       \
    }                                                                                \
  } while (0)

#define STEPS 40

__global__ void scale_into(float* dst, const float* src, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = a * src[i];
}

__global__ void accumulate(float* acc, const float* tmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += tmp[i];
}

// Pattern 1: a scratch buffer per step.
static void scratch_steps(float* acc, const float* in, int n) {
  for (int step = 0; step < STEPS; ++step) {
    float* tmp;
    CHECK(cudaMalloc(&tmp, n * sizeof(float)));
    scale_into<<<(n + 255) / 256, 256>>>(tmp, in, 2.0f, n);
    accumulate<<<(n + 255) / 256, 256>>>(acc, tmp, n);
    CHECK(cudaGetLastError());
    CHECK(cudaFree(tmp));
  }
}

// Pattern 1, pinned host memory: a staging buffer per step.
static void staged_uploads(float* acc, int n) {
  for (int step = 0; step < 8; ++step) {
    float* staging;
    CHECK(cudaMallocHost(&staging, n * sizeof(float)));
    float* dev;
    CHECK(cudaMalloc(&dev, n * sizeof(float)));
    for (int i = 0; i < n; ++i) staging[i] = 1.0f;
    CHECK(cudaMemcpy(dev, staging, n * sizeof(float), cudaMemcpyHostToDevice));
    accumulate<<<(n + 255) / 256, 256>>>(acc, dev, n);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(dev));
    CHECK(cudaFreeHost(staging));
  }
}

// Pattern 5: a stream and an event per step.
static void streamed_steps(float* acc, const float* in, int n) {
  for (int step = 0; step < STEPS; ++step) {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t done;
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    accumulate<<<(n + 255) / 256, 256, 0, s>>>(acc, in, n);
    CHECK(cudaEventRecord(done, s));
    CHECK(cudaEventSynchronize(done));
    CHECK(cudaEventDestroy(done));
    CHECK(cudaStreamDestroy(s));
  }
}

// Pattern 2: the check after every launch waits for the device (reported only).
static void checked_steps(float* acc, const float* in, int n) {
  for (int step = 0; step < STEPS; ++step) {
    accumulate<<<(n + 255) / 256, 256>>>(acc, in, n);
    CHECK(cudaDeviceSynchronize());
  }
}

int main() {
  const int n = 1 << 16;
  float* h_in = (float*)malloc(n * sizeof(float));
  float* h_acc = (float*)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) h_in[i] = (float)(i % 97) * 0.25f;
  float *in, *acc;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&acc, n * sizeof(float)));
  CHECK(cudaMemcpy(in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(acc, 0, n * sizeof(float)));

  scratch_steps(acc, in, n);      // acc = 2 * STEPS * in
  staged_uploads(acc, n);         // + 8
  streamed_steps(acc, in, n);     // + STEPS * in
  checked_steps(acc, in, n);      // + STEPS * in
  CHECK(cudaMemcpy(h_acc, acc, n * sizeof(float), cudaMemcpyDeviceToHost));

  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float want = 4.0f * STEPS * h_in[i] + 8.0f;
    if (std::fabs(h_acc[i] - want) > 1e-3f * (1.0f + std::fabs(want))) {
      if (bad < 5) fprintf(stderr, "i=%d: %.9g (want %.9g)\n", i, h_acc[i], want);
      ++bad;
    }
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(acc));
  free(h_in);
  free(h_acc);
  if (bad) {
    printf("FAIL hoist_in_loops: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS hoist_in_loops\n");
  return 0;
}
