// The timing harness shared by bench/fusion/chain2.cu, chain3.cu and chain4.cu.
//
// A chain source defines its kernels, run_chain (the launches as a user writes them),
// run_hand_kept and run_hand_dropped, wraps each in a `void(const Buffers&)` and calls
// bench_main. This header holds only what is the same for every chain: filling the
// inputs, checking a variant's output against run_chain's, timing and the CSV lines.
// It has no chain of launches of its own (one launch per fill or check), so fusing a
// chain source never touches it.
//
//   ./chainN [MAX_MIB [REPS]]
//
// For each size per buffer (1, 4, 16, 64, 256, 1024 MiB, up to MAX_MIB, default 1024)
// and each variant: one run whose output is compared with run_chain's (the output
// buffer is poisoned with NaN before it); warm-up runs, in batches of 3, 6, 12, ...
// until a batch takes 10 ms or more (the clocks settle); then R runs back to back on
// the stream, an event recorded between every two, where R is REPS (default 30) or, for
// runs so short that REPS of them take less than 20 ms, as many as take 20 ms (at most
// 4000). The median of the R intervals is printed as
//   chain,variant,bytes_per_buffer,median_ms,bytes_moved,GBps
// where bytes_moved is the variant's minimum traffic (its factor times the buffer size;
// the chain source states the formula) and GBps = bytes_moved / median / 1e9.
// Exit status: 0; 1 when a variant's output differed from run_chain's; 3 on a CUDA error; 2 when there is
// no CUDA device (the message starts with "no CUDA GPU").
#pragma once

#include <algorithm>
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
      exit(3);                                                               \
    }                                                                        \
  } while (0)

constexpr int kMaxBuffers = 4;

struct Buffers {
  float* in[kMaxBuffers];   // inputs, filled once per size
  float* mid[kMaxBuffers];  // intermediates of the chain
  float* out;               // the chain's final output
  int n;                    // floats per buffer
};

struct Variant {
  const char* name;               // chain, hand_kept, hand_dropped
  void (*run)(const Buffers&);
  int buffers_moved;              // bytes_moved = buffers_moved * bytes_per_buffer
};

// Deterministic inputs in [-2, 2): a hash of the index and of the buffer's number.
__global__ void fill_inputs(Buffers b, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= b.n) return;
  for (int k = 0; k < count; ++k) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u + static_cast<unsigned>(k + 1) * 0x9E3779B9u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    b.in[k][i] = static_cast<float>(h & 0xFFFFFFu) * (4.0f / 16777216.0f) - 2.0f;
  }
}

// Counts the elements where got and want differ by more than a rounding: a fused kernel
// may contract a multiply and an add that were in two kernels into one fma.
__global__ void count_mismatches(const float* got, const float* want, int n, unsigned long long* bad) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float g = got[i], w = want[i];
  if (!(fabsf(g - w) <= 1e-5f * (1.0f + fabsf(w)))) atomicAdd(bad, 1ull);
}

inline unsigned long long mismatches(const float* got, const float* want, int n) {
  unsigned long long* d_bad;
  unsigned long long bad = 0;
  CHECK(cudaMalloc(&d_bad, sizeof(bad)));
  CHECK(cudaMemset(d_bad, 0, sizeof(bad)));
  count_mismatches<<<(n + 255) / 256, 256>>>(got, want, n, d_bad);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&bad, d_bad, sizeof(bad), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_bad));
  return bad;
}

inline double median_of(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (static_cast<double>(v[m - 1]) + v[m]);
}

// The median time of one run of `variant`, in milliseconds: runs enqueued back to back
// on the (legacy default) stream the variants launch on, events between them (see the
// top of this file for the warm-up and the number of runs).
inline double time_variant(const Variant& variant, const Buffers& b, int min_reps) {
  cudaEvent_t begin, end;
  CHECK(cudaEventCreate(&begin));
  CHECK(cudaEventCreate(&end));
  float batch_ms = 0.0f;
  int batch = 3;
  for (;; batch *= 2) {
    CHECK(cudaEventRecord(begin));
    for (int w = 0; w < batch; ++w) variant.run(b);
    CHECK(cudaEventRecord(end));
    CHECK(cudaGetLastError());
    CHECK(cudaEventSynchronize(end));
    CHECK(cudaEventElapsedTime(&batch_ms, begin, end));
    if (batch_ms >= 10.0f || batch >= 4096) break;
  }
  CHECK(cudaEventDestroy(begin));
  CHECK(cudaEventDestroy(end));
  const double per_run_ms = batch_ms / batch;
  const int reps = std::max(min_reps, static_cast<int>(std::min(4000.0, std::ceil(20.0 / per_run_ms))));
  std::vector<cudaEvent_t> events(reps + 1);
  for (auto& e : events) CHECK(cudaEventCreate(&e));
  CHECK(cudaEventRecord(events[0]));
  for (int r = 0; r < reps; ++r) {
    variant.run(b);
    CHECK(cudaEventRecord(events[r + 1]));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventSynchronize(events[reps]));
  std::vector<float> ms(reps);
  for (int r = 0; r < reps; ++r) CHECK(cudaEventElapsedTime(&ms[r], events[r], events[r + 1]));
  for (auto& e : events) CHECK(cudaEventDestroy(e));
  return median_of(ms);
}

inline int bench_main(int argc, char** argv, const char* chain, int n_in, int n_mid, const Variant* variants,
                      int n_variants) {
  const long max_mib = argc > 1 ? std::atol(argv[1]) : 1024;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 30;
  if (max_mib < 1 || reps < 1 || n_in > kMaxBuffers || n_mid > kMaxBuffers) {
    fprintf(stderr, "usage: %s [MAX_MIB >= 1 [REPS >= 1]]\n", argv[0]);
    return 2;
  }
  int devices = 0;
  const cudaError_t probe = cudaGetDeviceCount(&devices);
  if (probe != cudaSuccess || devices == 0) {
    fprintf(stderr, "no CUDA GPU: %s\n", probe != cudaSuccess ? cudaGetErrorString(probe) : "0 devices");
    return 2;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  fprintf(stderr, "%s on %s, %d SMs, %.1f GiB; at least %d reps per point\n", chain, prop.name,
          prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0, reps);

  printf("chain,variant,bytes_per_buffer,median_ms,bytes_moved,GBps\n");
  int status = 0;
  for (long mib = 1; mib <= max_mib; mib *= 4) {
    const size_t bytes = static_cast<size_t>(mib) << 20;
    const int buffers = n_in + n_mid + 2;  // + out and run_chain's reference output
    size_t free_bytes = 0, total_bytes = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (buffers * bytes + (64u << 20) > free_bytes) {
      fprintf(stderr, "%s: %ld MiB per buffer needs %zu MiB, %zu MiB free: stopping here\n", chain, mib,
              (buffers * bytes) >> 20, free_bytes >> 20);
      break;
    }
    Buffers b = {};
    b.n = static_cast<int>(bytes / sizeof(float));
    for (int k = 0; k < n_in; ++k) CHECK(cudaMalloc(&b.in[k], bytes));
    for (int k = 0; k < n_mid; ++k) CHECK(cudaMalloc(&b.mid[k], bytes));
    float* reference;
    CHECK(cudaMalloc(&b.out, bytes));
    CHECK(cudaMalloc(&reference, bytes));
    fill_inputs<<<(b.n + 255) / 256, 256>>>(b, n_in);
    CHECK(cudaGetLastError());

    variants[0].run(b);  // run_chain: the reference output
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(reference, b.out, bytes, cudaMemcpyDeviceToDevice));

    for (int v = 0; v < n_variants; ++v) {
      CHECK(cudaMemset(b.out, 0xFF, bytes));  // NaN: an output the variant does not write is caught
      variants[v].run(b);
      CHECK(cudaGetLastError());
      const unsigned long long bad = mismatches(b.out, reference, b.n);
      if (bad) {
        fprintf(stderr, "MISMATCH %s %s at %ld MiB: %llu of %d elements differ from run_chain's output\n", chain,
                variants[v].name, mib, bad, b.n);
        status = 1;
      }
      const double ms = time_variant(variants[v], b, reps);
      const double moved = static_cast<double>(variants[v].buffers_moved) * bytes;
      printf("%s,%s,%zu,%.6f,%.0f,%.1f\n", chain, variants[v].name, bytes, ms, moved, moved / (ms * 1e-3) / 1e9);
      fflush(stdout);
    }

    for (int k = 0; k < n_in; ++k) CHECK(cudaFree(b.in[k]));
    for (int k = 0; k < n_mid; ++k) CHECK(cudaFree(b.mid[k]));
    CHECK(cudaFree(b.out));
    CHECK(cudaFree(reference));
  }
  return status;
}
