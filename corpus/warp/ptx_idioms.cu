// Inline PTX the way CUDA libraries write it, one instruction per asm statement: the
// lane id from %laneid, read-only loads through ld.global.nc, bit fields with bfe/bfi,
// byte shuffles with prmt, funnel shifts with shf (wrap and clamp), a shfl.sync.down
// sum over 32-lane segments, and %clock64 read around the work. Every result is
// checked against the host's own computation; the lane id against the device's warp
// size, so the check holds for any warp width.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

constexpr int kBlock = 256;

struct Bits {
  unsigned lane;        // %laneid
  float scaled;         // 2 * in[i], loaded with ld.global.nc
  unsigned nibble;      // bits 11:8 of the word
  unsigned top;         // bits 31:24
  unsigned inserted;    // bits 15:4 of the word replaced by the low 12 bits of i
  unsigned permuted;    // prmt with selector 0x5140
  unsigned left;        // shf.l.wrap by i % 64
  unsigned right;       // shf.r.wrap by i % 64
  unsigned left_clamp;  // shf.l.clamp by i % 40
  unsigned right_clamp; // shf.r.clamp by i % 40
};

__global__ void ptx_ops(const float* in, const unsigned* words, int n, Bits* out,
                        unsigned* segment_sums, long long* cycles) {
  long long start;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(start));
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool valid = i < n;
  const unsigned w = valid ? words[i] : 0u;
  const unsigned u = static_cast<unsigned>(i);
  const unsigned shift = u % 64;
  const unsigned clamp_shift = u % 40;

  Bits b;
  asm("mov.u32 %0, %%laneid;" : "=r"(b.lane));
  b.scaled = 0.0f;
  if (valid) {
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(in + i));
    b.scaled = 2.0f * v;
  }
  asm("bfe.u32 %0, %1, 8, 4;" : "=r"(b.nibble) : "r"(w));
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(b.top) : "r"(w), "n"(24), "n"(8));
  asm("bfi.b32 %0, %1, %2, 4, 12;" : "=r"(b.inserted) : "r"(u), "r"(w));
  asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(b.permuted) : "r"(w), "r"(u));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(b.left) : "r"(w), "r"(u), "r"(shift));
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(b.right) : "r"(w), "r"(u), "r"(shift));
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(b.left_clamp) : "r"(w), "r"(u), "r"(clamp_shift));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(b.right_clamp) : "r"(w), "r"(u), "r"(clamp_shift));
  if (valid) out[i] = b;

  // Sum of each 32-thread segment: every thread takes part (the tail carries 0).
  unsigned sum = w & 0xffffu;
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    unsigned other;
    asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(other) : "r"(sum), "r"(offset));
    sum += other;
  }
  if (threadIdx.x % 32 == 0) segment_sums[i / 32] = sum;

  long long stop;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(stop));
  if (threadIdx.x == 0) cycles[blockIdx.x] = stop - start;
}

static unsigned host_prmt(unsigned a, unsigned b, unsigned selector) {
  const unsigned long long bytes = (static_cast<unsigned long long>(b) << 32) | a;
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) {
    const unsigned pick = (selector >> (4 * k)) & 7u;
    r |= static_cast<unsigned>((bytes >> (8 * pick)) & 0xffu) << (8 * k);
  }
  return r;
}

static unsigned host_funnel(unsigned lo, unsigned hi, unsigned n, bool left) {
  const unsigned long long wide = (static_cast<unsigned long long>(hi) << 32) | lo;
  return left ? static_cast<unsigned>((wide << n) >> 32) : static_cast<unsigned>(wide >> n);
}

static int check(const char* what, int bad) {
  printf("%s: %s\n", bad == 0 ? "PASS" : "FAIL", what);
  return bad == 0 ? 0 : 1;
}

int main() {
  const int n = 10000;  // 40 blocks of 256, the last one partial
  const int blocks = (n + kBlock - 1) / kBlock;
  const int segments = blocks * kBlock / 32;
  int device = 0, warp = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device));

  std::vector<float> h_in(n);
  std::vector<unsigned> h_words(n);
  for (int i = 0; i < n; ++i) {
    h_in[i] = 0.25f * static_cast<float>(i % 1000) - 17.0f;
    h_words[i] = 2654435761u * static_cast<unsigned>(i + 1) ^ (static_cast<unsigned>(i) << 7);
  }

  float* d_in;
  unsigned *d_words, *d_sums;
  Bits* d_out;
  long long* d_cycles;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_words, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_out, n * sizeof(Bits)));
  CHECK(cudaMalloc(&d_sums, segments * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_cycles, blocks * sizeof(long long)));
  CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_words, h_words.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

  ptx_ops<<<blocks, kBlock>>>(d_in, d_words, n, d_out, d_sums, d_cycles);
  CHECK(cudaGetLastError());

  std::vector<Bits> out(n);
  std::vector<unsigned> sums(segments);
  std::vector<long long> cycles(blocks);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(Bits), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums.data(), d_sums, segments * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(cycles.data(), d_cycles, blocks * sizeof(long long), cudaMemcpyDeviceToHost));

  int bad_lane = 0, bad_load = 0, bad_bfe = 0, bad_bfi = 0, bad_prmt = 0, bad_shf = 0, bad_clamp = 0;
  for (int i = 0; i < n; ++i) {
    const Bits& b = out[i];
    const unsigned w = h_words[i], u = static_cast<unsigned>(i);
    const unsigned s = u % 64 & 31u, c = u % 40 < 32 ? u % 40 : 32u;
    if (b.lane != static_cast<unsigned>(i % kBlock % warp)) ++bad_lane;
    if (b.scaled != 2.0f * h_in[i]) ++bad_load;
    if (b.nibble != ((w >> 8) & 0xfu) || b.top != (w >> 24)) ++bad_bfe;
    if (b.inserted != ((w & ~(0xfffu << 4)) | ((u & 0xfffu) << 4))) ++bad_bfi;
    if (b.permuted != host_prmt(w, u, 0x5140)) ++bad_prmt;
    if (b.left != host_funnel(w, u, s, true) || b.right != host_funnel(w, u, s, false)) ++bad_shf;
    if (b.left_clamp != host_funnel(w, u, c, true) || b.right_clamp != host_funnel(w, u, c, false))
      ++bad_clamp;
  }
  int bad_sums = 0;
  for (int g = 0; g < segments; ++g) {
    unsigned want = 0;
    for (int l = 0; l < 32; ++l) {
      const int i = g * 32 + l;
      want += i < n ? (h_words[i] & 0xffffu) : 0u;
    }
    if (sums[g] != want && bad_sums++ < 3) fprintf(stderr, "segment %d: %u, want %u\n", g, sums[g], want);
  }
  int bad_cycles = 0;
  for (int k = 0; k < blocks; ++k) bad_cycles += cycles[k] < 0;

  int failures = 0;
  failures += check("%laneid is the thread's lane", bad_lane);
  failures += check("ld.global.nc loads the input", bad_load);
  failures += check("bfe.u32 extracts bits 11:8 and 31:24", bad_bfe);
  failures += check("bfi.b32 inserts 12 bits at bit 4", bad_bfi);
  failures += check("prmt.b32 0x5140 picks the bytes", bad_prmt);
  failures += check("shf.l/r.wrap shift by i % 64 modulo 32", bad_shf);
  failures += check("shf.l/r.clamp shift by at most 32", bad_clamp);
  failures += check("shfl.sync.down sums each 32-thread segment", bad_sums);
  failures += check("%clock64 does not run backwards", bad_cycles);

  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_words));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_cycles));
  printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
