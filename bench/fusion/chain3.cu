// Fusion benchmark, a chain of three float32 elementwise kernels:
//   y   = a * x + b          (axpb)
//   z   = relu(y) * w        (relu_mul)
//   out = z + c              (add)
// run_chain launches them as a user writes it; bench/fusion.py translates this file with
// `--target cuda` so that the fusion pass replaces the three launches with one.
//
// bytes_moved, with B the bytes per buffer (each float read or written once, at least):
//   chain        axpb 2 B (x; y) + relu_mul 3 B (y, w; z) + add 3 B (z, c; out)  = 8 B
//   hand_kept    one kernel: reads x, w, c; writes y, z, out                    = 6 B
//   hand_dropped one kernel: reads x, w, c; writes out                          = 4 B
#include "harness.cuh"

constexpr float kA = 1.5f;
constexpr float kB = -0.25f;

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

__global__ void add(const float* z, const float* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = z[i] + c[i];
  }
}

// The pointers are __restrict__ (the caller passes distinct buffers): without that promise
// the fusion pass cannot prove that fusing keeps the result.
void run_chain(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ c,
               float* __restrict__ y, float* __restrict__ z, float* __restrict__ out, float a, float b, int n) {
  const int grid = (n + 255) / 256;
  axpb<<<grid, 256>>>(x, y, a, b, n);
  relu_mul<<<grid, 256>>>(y, w, z, n);
  add<<<grid, 256>>>(z, c, out, n);
}

// The hand-fused kernels, written as one would by hand: their pointers are __restrict__, so
// the compiler may issue every load before the first store.
__global__ void hand_fused_kept(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ c,
                                float* __restrict__ y, float* __restrict__ z, float* __restrict__ out, float a, float b,
                                int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float yv = a * x[i] + b;
    y[i] = yv;
    const float zv = fmaxf(yv, 0.0f) * w[i];
    z[i] = zv;
    out[i] = zv + c[i];
  }
}

__global__ void hand_fused_dropped(const float* __restrict__ x, const float* __restrict__ w, const float* __restrict__ c,
                                   float* __restrict__ out, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float yv = a * x[i] + b;
    const float zv = fmaxf(yv, 0.0f) * w[i];
    out[i] = zv + c[i];
  }
}

void run_hand_kept(const float* x, const float* w, const float* c, float* y, float* z, float* out, float a,
                   float b, int n) {
  hand_fused_kept<<<(n + 255) / 256, 256>>>(x, w, c, y, z, out, a, b, n);
}

void run_hand_dropped(const float* x, const float* w, const float* c, float* out, float a, float b, int n) {
  hand_fused_dropped<<<(n + 255) / 256, 256>>>(x, w, c, out, a, b, n);
}

static void variant_chain(const Buffers& m) {
  run_chain(m.in[0], m.in[1], m.in[2], m.mid[0], m.mid[1], m.out, kA, kB, m.n);
}
static void variant_kept(const Buffers& m) {
  run_hand_kept(m.in[0], m.in[1], m.in[2], m.mid[0], m.mid[1], m.out, kA, kB, m.n);
}
static void variant_dropped(const Buffers& m) { run_hand_dropped(m.in[0], m.in[1], m.in[2], m.out, kA, kB, m.n); }

int main(int argc, char** argv) {
  const Variant variants[] = {
      {"chain", variant_chain, 8},
      {"hand_kept", variant_kept, 6},
      {"hand_dropped", variant_dropped, 4},
  };
  return bench_main(argc, argv, "chain3", 3, 2, variants, 3);
}
