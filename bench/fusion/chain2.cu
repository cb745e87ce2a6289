// Fusion benchmark, a chain of two float32 elementwise kernels:
//   y   = a * x + b          (axpb)
//   out = relu(y) * w        (relu_mul)
// run_chain launches them as a user writes it; bench/fusion.py translates this file with
// `--target cuda` so that the fusion pass replaces the two launches with one.
//
// bytes_moved, with B the bytes per buffer (each float read or written once, at least):
//   chain        axpb reads x, writes y; relu_mul reads y, w, writes out     = 5 B
//   hand_kept    one kernel: reads x, w; writes y, out                       = 4 B
//   hand_dropped one kernel: reads x, w; writes out (y stays in a register)  = 3 B
#include "harness.cuh"

constexpr float kA = 1.5f;
constexpr float kB = -0.25f;

__global__ void axpb(const float* x, float* y, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + b;
  }
}

__global__ void relu_mul(const float* y, const float* w, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = fmaxf(y[i], 0.0f) * w[i];
  }
}

// The pointers are __restrict__ (the caller passes distinct buffers): without that promise
// the fusion pass cannot prove that fusing keeps the result.
void run_chain(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
               float* __restrict__ out, float a, float b, int n) {
  const int grid = (n + 255) / 256;
  axpb<<<grid, 256>>>(x, y, a, b, n);
  relu_mul<<<grid, 256>>>(y, w, out, n);
}

// The hand-fused kernels, written as one would by hand: their pointers are __restrict__, so
// the compiler may issue every load before the first store.
__global__ void hand_fused_kept(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                                float* __restrict__ out, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float yv = a * x[i] + b;
    y[i] = yv;
    out[i] = fmaxf(yv, 0.0f) * w[i];
  }
}

__global__ void hand_fused_dropped(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ out,
                                   float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float yv = a * x[i] + b;
    out[i] = fmaxf(yv, 0.0f) * w[i];
  }
}

void run_hand_kept(const float* x, const float* w, float* y, float* out, float a, float b, int n) {
  hand_fused_kept<<<(n + 255) / 256, 256>>>(x, w, y, out, a, b, n);
}

void run_hand_dropped(const float* x, const float* w, float* out, float a, float b, int n) {
  hand_fused_dropped<<<(n + 255) / 256, 256>>>(x, w, out, a, b, n);
}

static void variant_chain(const Buffers& m) { run_chain(m.in[0], m.in[1], m.mid[0], m.out, kA, kB, m.n); }
static void variant_kept(const Buffers& m) { run_hand_kept(m.in[0], m.in[1], m.mid[0], m.out, kA, kB, m.n); }
static void variant_dropped(const Buffers& m) { run_hand_dropped(m.in[0], m.in[1], m.out, kA, kB, m.n); }

int main(int argc, char** argv) {
  const Variant variants[] = {
      {"chain", variant_chain, 5},
      {"hand_kept", variant_kept, 4},
      {"hand_dropped", variant_dropped, 3},
  };
  return bench_main(argc, argv, "chain2", 2, 1, variants, 3);
}
