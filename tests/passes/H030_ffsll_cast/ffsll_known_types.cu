// cu2hip-options: --ignore L
#include <cuda_runtime.h>
#include <cstdint>
#include <cstddef>

// HIP declares __ffsll(long long) and __ffsll(unsigned long long): every other integer
// type is ambiguous, so the argument is cast to the overload of its own signedness.
typedef unsigned long word_t;
using index_t = int64_t;

struct Board {
  uint64_t openings[4];
  long signed_bits;
  word_t words[2];
};

__device__ int firsts(const Board* board, const Board& ref, int d, long l, unsigned long ul, int64_t s,
                      uint64_t u, size_t z, word_t w, index_t x, int i, unsigned int ui) {
  int offset = 0;
  offset += __ffsll(board->openings[d]) + __ffsll(ref.signed_bits) + __ffsll(board->words[1]);
  offset += __ffsll(l) + __ffsll(ul) + __ffsll(s) + __ffsll(u) + __ffsll(z) + __ffsll(w) + __ffsll(x);
  offset += __ffsll(i) + __ffsll(ui) + __ffsll(1) + __ffsll(0x80000000);
  offset += __ffsll(l & 0xff) + __ffsll(u >> 3) + __ffsll(~ul) + __ffsll((l)) + __ffsll(i ? l : s);
  for (int k = 0; k < 4; ++k) offset += __ffsll(board->openings[k]);
  return offset;
}

// Already an exact match: long long and unsigned long long, literals and casts included.
__device__ int exact(long long a, unsigned long long b, const long long* c) {
  return __ffsll(a) + __ffsll(b) + __ffsll(c[0]) + __ffsll(1ll) + __ffsll(2ull) + __ffsll((long long)a)
       + __ffsll(static_cast<unsigned long long>(b));
}

// One declaration each in HIP: any integer converts, as in CUDA. Nothing to do.
__device__ int others(uint64_t u, long l) {
  return __popcll(u) + __clzll(l) + (int)__brevll(u);
}
