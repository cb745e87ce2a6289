// Register-heavy kernels (160 floats live in each thread) launched with 128 or 256
// threads per block, the block size given in each of the ways a program does: a literal,
// a const variable, a constexpr, a macro, a template argument; and one read at run
// time. Without __launch_bounds__, HIP-Clang compiles them for 1024-thread blocks and
// they spill on gfx90a; cu2hip bounds each from its launches, except the last, which it
// must leave (its block size is known only at run time). Each kernel's result is checked
// against the same arithmetic on the CPU.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));   \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

#define LIVE 160              // floats each thread keeps in registers
#define MACRO_BLOCK 128
constexpr int kConstexprBlock = 256;

// The work of every kernel: LIVE values loaded, mixed `steps` times, summed.
__host__ __device__ inline float mix(const float *in, int i, int steps) {
  float r[LIVE];
#pragma unroll
  for (int k = 0; k < LIVE; ++k) r[k] = in[i + k];
  for (int s = 0; s < steps; ++s) {
#pragma unroll
    for (int k = 0; k < LIVE; ++k) r[k] = fmaf(r[k], r[(k + 7) % LIVE], 0.5f);
  }
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < LIVE; ++k) acc += r[k];
  return acc;
}

__global__ void heavy_literal(const float *in, float *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix(in, i, steps);
}
__global__ void heavy_const(const float *in, float *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix(in, i, steps);
}
__global__ void heavy_constexpr(const float *in, float *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix(in, i, steps);
}
__global__ void heavy_macro(const float *in, float *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix(in, i, steps);
}
template <int BLOCK>
__global__ void heavy_template(const float *in, float *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix(in, i, steps) + BLOCK;
}
__global__ void heavy_runtime(const float *in, float *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = mix(in, i, steps);
}

template <int BLOCK>
void launch_template(const float *in, float *out, int n, int steps) {
  heavy_template<BLOCK><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n, steps);
}

static int check(const char *name, const std::vector<float> &got, const std::vector<float> &in, int n, int steps,
                 float offset) {
  for (int i = 0; i < n; ++i) {
    float want = mix(in.data(), i, steps) + offset;
    if (!(std::fabs(got[i] - want) <= 1e-5f * (1.0f + std::fabs(want)))) {
      printf("FAIL register_heavy: %s: out[%d] = %.9g, want %.9g\n", name, i, got[i], want);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  const int n = 4096 + 37;          // not a multiple of any block size: the guard matters
  const int steps = 4;
  std::vector<float> in(n + LIVE);
  for (size_t k = 0; k < in.size(); ++k) in[k] = static_cast<float>((k * 37) % 101) / 202.0f;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));

  const int const_block = 128;
  const int runtime_block = argc > 1 ? atoi(argv[1]) : 256;
  std::vector<float> out(n);
  int bad = 0;

  heavy_literal<<<(n + 255) / 256, 256>>>(d_in, d_out, n, steps);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("literal", out, in, n, steps, 0.0f);

  heavy_const<<<(n + const_block - 1) / const_block, const_block>>>(d_in, d_out, n, steps);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("const", out, in, n, steps, 0.0f);

  heavy_constexpr<<<(n + kConstexprBlock - 1) / kConstexprBlock, kConstexprBlock>>>(d_in, d_out, n, steps);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("constexpr", out, in, n, steps, 0.0f);

  heavy_macro<<<(n + MACRO_BLOCK - 1) / MACRO_BLOCK, MACRO_BLOCK>>>(d_in, d_out, n, steps);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("macro", out, in, n, steps, 0.0f);

  launch_template<256>(d_in, d_out, n, steps);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("template", out, in, n, steps, 256.0f);

  heavy_runtime<<<(n + runtime_block - 1) / runtime_block, runtime_block>>>(d_in, d_out, n, steps);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check("runtime", out, in, n, steps, 0.0f);

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  if (bad) return 1;
  printf("PASS register_heavy\n");
  return 0;
}
