// A loop whose body is only launches on a stream the function creates (the runtime pass
// captures them once as a graph and launches the graph per iteration: R012), and the same
// loop on the default stream, which cannot be captured (R013, reported). Both relax a
// 1-D field and must agree with each other and with the host's reference.
// Self-checking: prints PASS and exits 0 when every result is right.
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

// Reads its neighbours: not elementwise (the fusion pass leaves the pair alone).
__global__ void smooth(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) out[i] = 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
  else if (i < n) out[i] = in[i];
}

// R012: captured once, launched `steps` times.
static void relax(float* a, float* b, int n, int steps) {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int it = 0; it < steps; ++it) {
    smooth<<<(n + 255) / 256, 256, 0, s>>>(b, a, n);
    smooth<<<(n + 255) / 256, 256, 0, s>>>(a, b, n);
  }
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaStreamDestroy(s));
}

// R013: the default stream cannot be captured.
static void relax_default(float* a, float* b, int n, int steps) {
  for (int it = 0; it < steps; ++it) {
    smooth<<<(n + 255) / 256, 256>>>(b, a, n);
    smooth<<<(n + 255) / 256, 256>>>(a, b, n);
  }
  CHECK(cudaDeviceSynchronize());
}

int main() {
  const int n = 4096, steps = 50;
  float* init = (float*)malloc(n * sizeof(float));
  float* ref = (float*)malloc(n * sizeof(float));
  float* tmp = (float*)malloc(n * sizeof(float));
  float* got = (float*)malloc(n * sizeof(float));
  float* other = (float*)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) init[i] = ref[i] = (i % 64 == 0) ? 64.0f : 0.0f;
  for (int it = 0; it < 2 * steps; ++it) {
    for (int i = 0; i < n; ++i)
      tmp[i] = (i > 0 && i < n - 1) ? 0.5f * ref[i] + 0.25f * (ref[i - 1] + ref[i + 1]) : ref[i];
    float* t = ref; ref = tmp; tmp = t;
  }
  float *a, *b, *c, *e;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&c, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  CHECK(cudaMemcpy(a, init, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(c, init, n * sizeof(float), cudaMemcpyHostToDevice));
  relax(a, b, n, steps);
  relax_default(c, e, n, steps);
  CHECK(cudaMemcpy(got, a, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(other, c, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (got[i] != other[i]) ++bad;
    if (std::fabs(got[i] - ref[i]) > 1e-4f * (1.0f + std::fabs(ref[i]))) ++bad;
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFree(e));
  free(init);
  free(ref);
  free(tmp);
  free(got);
  free(other);
  if (bad) {
    printf("FAIL launch_graphs: %d wrong\n", bad);
    return 1;
  }
  printf("PASS launch_graphs\n");
  return 0;
}
