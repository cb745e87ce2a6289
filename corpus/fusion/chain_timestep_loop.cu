// Fusion chain inside a time-step loop: each step of a symplectic Euler integrator
// for n independent oscillators is two elementwise launches, kick (v -= dt * k * p)
// then drift (p += dt * v). The chain is the body of
// `for (int step = 0; step < steps; ++step)`; each step reads what the last wrote.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(err_));                                     \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

__global__ void kick(const float* p, float* v, const float* stiffness, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = v[i] - dt * stiffness[i] * p[i];
  }
}

__global__ void drift(float* p, const float* v, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i] = p[i] + dt * v[i];
  }
}

static void integrate(float* __restrict__ p, float* __restrict__ v, const float* __restrict__ stiffness, float dt,
                      int steps, int n) {
  const int grid = (n + 255) / 256;
  for (int step = 0; step < steps; ++step) {
    kick<<<grid, 256>>>(p, v, stiffness, dt, n);
    drift<<<grid, 256>>>(p, v, dt, n);
  }
  CHECK(cudaGetLastError());
}

int main() {
  const int n = (1 << 20) + 200;
  const int steps = 50;
  const float dt = 0.01f;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> h_p(n), h_v(n), h_k(n), got_p(n), got_v(n);
  for (int i = 0; i < n; ++i) {
    h_p[i] = static_cast<float>((i * 31) % 401) * 0.005f - 1.0f;
    h_v[i] = static_cast<float>((i * 5) % 67) * 0.02f - 0.66f;
    h_k[i] = 0.5f + static_cast<float>(i % 8) * 0.5f;
  }

  float *d_p, *d_v, *d_k;
  CHECK(cudaMalloc(&d_p, bytes));
  CHECK(cudaMalloc(&d_v, bytes));
  CHECK(cudaMalloc(&d_k, bytes));
  CHECK(cudaMemcpy(d_p, h_p.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_v, h_v.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_k, h_k.data(), bytes, cudaMemcpyHostToDevice));

  integrate(d_p, d_v, d_k, dt, steps, n);

  CHECK(cudaMemcpy(got_p.data(), d_p, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got_v.data(), d_v, bytes, cudaMemcpyDeviceToHost));

  // The same steps on the host, in float. The device may contract a multiply and an
  // add into an fma, so the two drift apart by a few ulps a step: 1e-4 is loose enough
  // for 50 steps and far tighter than any wrong ordering of kick and drift.
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float p = h_p[i], v = h_v[i];
    for (int step = 0; step < steps; ++step) {
      v = v - dt * h_k[i] * p;
      p = p + dt * v;
    }
    const bool ok = std::fabs(got_p[i] - p) <= 1e-4f * (1.0f + std::fabs(p)) &&
                    std::fabs(got_v[i] - v) <= 1e-4f * (1.0f + std::fabs(v));
    if (!ok) {
      if (bad < 5) fprintf(stderr, "i=%d: p=%.9g (want %.9g), v=%.9g (want %.9g)\n", i, got_p[i], p, got_v[i], v);
      ++bad;
    }
  }

  CHECK(cudaFree(d_p));
  CHECK(cudaFree(d_v));
  CHECK(cudaFree(d_k));
  if (bad) {
    printf("FAIL chain_timestep_loop: %d of %d wrong\n", bad, n);
    return 1;
  }
  printf("PASS chain_timestep_loop\n");
  return 0;
}
