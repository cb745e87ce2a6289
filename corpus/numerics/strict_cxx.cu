// What nvcc accepts and hipcc's C++17 or HIP's overloads reject, together in one program:
// `register` locals and parameters, __ffsll on 64-bit types that are neither long long nor
// unsigned long long (uint64_t, long, size_t, a typedef, struct fields), and half2
// accumulators cleared with `= {}` and `= {0}`. Each result is checked on the host.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

typedef unsigned long word_t;
constexpr int kDirections = 4;

// A board: per direction, the squares still open, as 64-bit sets of two types.
struct Board {
    uint64_t openings[kDirections];
    long blocked;
};

// The first open square per direction (1-based, 0 when none), offset by the direction,
// plus the first blocked square and the lowest set bit of a size and a typedef'd word.
__global__ void first_squares(const Board* boards, const size_t* sizes, const word_t* words, int* out, int n)
{
    register int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= n) return;
    register int total = 0;
    for (register int d = 0; d < kDirections; ++d) {
        register int offset = 64 * d;
        total += offset + __ffsll(boards[b].openings[d]);
    }
    const long blocked = boards[b].blocked;
    out[2 * b] = total + __ffsll(blocked);
    out[2 * b + 1] = __ffsll(sizes[b]) + 100 * __ffsll(words[b]);
}

// Sums of pairs of halves: one accumulator cleared with {}, one with {0}.
__global__ void pair_sums(const __half2* in, float* lo, float* hi, int per_thread, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    half2 acc;
    acc = {};
    __half2 odd;
    odd = {0};
    for (register int k = 0; k < per_thread; ++k) {
        if (k % 2) odd = __hadd2(odd, in[t * per_thread + k]);
        else acc = __hadd2(acc, in[t * per_thread + k]);
    }
    acc = __hadd2(acc, odd);
    lo[t] = __low2float(acc);
    hi[t] = __high2float(acc);
}

static int ffs64(unsigned long long v)
{
    for (int i = 0; i < 64; ++i)
        if (v >> i & 1ull) return i + 1;
    return 0;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

int main()
{
    const int n = 1000;
    std::vector<Board> boards(n);
    std::vector<size_t> sizes(n);
    std::vector<word_t> words(n);
    for (int b = 0; b < n; ++b) {
        for (int d = 0; d < kDirections; ++d) {
            uint64_t bits = mix(b * 7919ull + d + 1);
            bits <<= (b + d) % 64;          // the lowest set bit moves across the word
            boards[b].openings[d] = (b % 17 == d) ? 0 : bits;   // some directions closed
        }
        boards[b].blocked = (b % 5 == 0) ? -1L : (long)(mix(b + 3) << (b % 63)) & 0x7fffffffffffffffL;
        sizes[b] = (size_t)1 << (b % 64);
        words[b] = (b % 3 == 0) ? 0 : (word_t)mix(b) | (1ul << 63);
    }

    const int per_thread = 8, m = 512;
    std::vector<__half2> pairs(m * per_thread);
    std::vector<float> want_lo(m, 0.0f), want_hi(m, 0.0f);
    for (int t = 0; t < m; ++t)
        for (int k = 0; k < per_thread; ++k) {
            float a = 0.125f * ((t + k) % 16), c = -0.25f * ((t * 3 + k) % 8);
            pairs[t * per_thread + k] = __floats2half2_rn(a, c);
            want_lo[t] += a;
            want_hi[t] += c;
        }

    Board* d_boards;
    size_t* d_sizes;
    word_t* d_words;
    int* d_out;
    __half2* d_pairs;
    float *d_lo, *d_hi;
    CHECK(cudaMalloc(&d_boards, n * sizeof(Board)));
    CHECK(cudaMalloc(&d_sizes, n * sizeof(size_t)));
    CHECK(cudaMalloc(&d_words, n * sizeof(word_t)));
    CHECK(cudaMalloc(&d_out, 2 * n * sizeof(int)));
    CHECK(cudaMalloc(&d_pairs, m * per_thread * sizeof(__half2)));
    CHECK(cudaMalloc(&d_lo, m * sizeof(float)));
    CHECK(cudaMalloc(&d_hi, m * sizeof(float)));
    CHECK(cudaMemcpy(d_boards, boards.data(), n * sizeof(Board), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_sizes, sizes.data(), n * sizeof(size_t), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_words, words.data(), n * sizeof(word_t), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_pairs, pairs.data(), m * per_thread * sizeof(__half2), cudaMemcpyHostToDevice));

    first_squares<<<(n + 127) / 128, 128>>>(d_boards, d_sizes, d_words, d_out, n);
    pair_sums<<<(m + 127) / 128, 128>>>(d_pairs, d_lo, d_hi, per_thread, m);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<int> out(2 * n);
    std::vector<float> lo(m), hi(m);
    CHECK(cudaMemcpy(out.data(), d_out, 2 * n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(lo.data(), d_lo, m * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hi.data(), d_hi, m * sizeof(float), cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int b = 0; b < n; ++b) {
        int total = 0;
        for (int d = 0; d < kDirections; ++d) total += 64 * d + ffs64(boards[b].openings[d]);
        int first = total + ffs64((unsigned long long)boards[b].blocked);
        int second = ffs64(sizes[b]) + 100 * ffs64(words[b]);
        if (out[2 * b] != first || out[2 * b + 1] != second) {
            if (bad < 8) fprintf(stderr, "board %d: %d %d, want %d %d\n", b, out[2 * b], out[2 * b + 1], first, second);
            ++bad;
        }
    }
    for (int t = 0; t < m; ++t) {
        // Every value and partial sum is a multiple of 1/8 below 16: exact in half.
        if (lo[t] != want_lo[t] || hi[t] != want_hi[t]) {
            if (bad < 8) fprintf(stderr, "pair %d: %f %f, want %f %f\n", t, lo[t], hi[t], want_lo[t], want_hi[t]);
            ++bad;
        }
    }

    for (void* p : {(void*)d_boards, (void*)d_sizes, (void*)d_words, (void*)d_out, (void*)d_pairs, (void*)d_lo,
                    (void*)d_hi})
        CHECK(cudaFree(p));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
