// Fusion benchmark, a chain of four float32 elementwise kernels:
//   y   = a * x + b          (axpb)
//   z   = relu(y) * w        (relu_mul)
//   u   = z + c              (add)
//   out = u * u * s          (square_scale)
// run_chain launches them as a user writes it; bench/fusion.py translates this file with
// `--target cuda` so that the fusion pass replaces the four launches with one.
//
// bytes_moved, with B the bytes per buffer (each float read or written once, at least):
//   chain        axpb 2 B + relu_mul 3 B + add 3 B + square_scale 2 B (u; out)   = 10 B
//   hand_kept    one kernel: reads x, w, c; writes y, z, u, out                  = 7 B
//   hand_dropped one kernel: reads x, w, c; writes out                           = 4 B
#include "harness.cuh"

constexpr float kA = 1.5f;
constexpr float kB = -0.25f;
constexpr float kS = 0.5f;

__global__ void axpb(const float* x, float* y, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + b;
  }
}

__global__ void relu_mul(const float* y, const float* w, float* z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    z[i] = fmaxf(y[i], 0.0f) * w[i];
  }
}

__global__ void add(const float* z, const float* c, float* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    u[i] = z[i] + c[i];
  }
}

__global__ void square_scale(const float* u, float* out, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = u[i] * u[i] * s;
  }
}

// The pointers are __restrict__ (the caller passes distinct buffers): without that promise
// the fusion pass cannot prove that fusing keeps the result.
void run_chain(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ c,
               float* __restrict__ y, float* __restrict__ z, float* __restrict__ u, float* __restrict__ out,
               float a, float b, float s, int n) {
  const int grid = (n + 255) / 256;
  axpb<<<grid, 256>>>(x, y, a, b, n);
  relu_mul<<<grid, 256>>>(y, w, z, n);
  add<<<grid, 256>>>(z, c, u, n);
  square_scale<<<grid, 256>>>(u, out, s, n);
}

// The hand-fused kernels, written as one would by hand: their pointers are __restrict__, so
// the compiler may issue every load before the first store.
__global__ void hand_fused_kept(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ c,
                                float* __restrict__ y, float* __restrict__ z, float* __restrict__ u, float* __restrict__ out,
                                float a, float b, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float yv = a * x[i] + b;
    y[i] = yv;
    const float zv = fmaxf(yv, 0.0f) * w[i];
    z[i] = zv;
    const float uv = zv + c[i];
    u[i] = uv;
    out[i] = uv * uv * s;
  }
}

__global__ void hand_fused_dropped(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ c,
                                   float* __restrict__ out, float a, float b, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float yv = a * x[i] + b;
    const float zv = fmaxf(yv, 0.0f) * w[i];
    const float uv = zv + c[i];
    out[i] = uv * uv * s;
  }
}

void run_hand_kept(const float* x, const float* w, const float* c, float* y, float* z, float* u, float* out,
                   float a, float b, float s, int n) {
  hand_fused_kept<<<(n + 255) / 256, 256>>>(x, w, c, y, z, u, out, a, b, s, n);
}

void run_hand_dropped(const float* x, const float* w, const float* c, float* out, float a, float b, float s,
                      int n) {
  hand_fused_dropped<<<(n + 255) / 256, 256>>>(x, w, c, out, a, b, s, n);
}

static void variant_chain(const Buffers& m) {
  run_chain(m.in[0], m.in[1], m.in[2], m.mid[0], m.mid[1], m.mid[2], m.out, kA, kB, kS, m.n);
}
static void variant_kept(const Buffers& m) {
  run_hand_kept(m.in[0], m.in[1], m.in[2], m.mid[0], m.mid[1], m.mid[2], m.out, kA, kB, kS, m.n);
}
static void variant_dropped(const Buffers& m) {
  run_hand_dropped(m.in[0], m.in[1], m.in[2], m.out, kA, kB, kS, m.n);
}

int main(int argc, char** argv) {
  const Variant variants[] = {
      {"chain", variant_chain, 10},
      {"hand_kept", variant_kept, 7},
      {"hand_dropped", variant_dropped, 4},
  };
  return bench_main(argc, argv, "chain4", 3, 3, variants, 3);
}
