// The file's own names are not reported, however they are declared: macros and their
// parameters, templates and their parameters, members, aliases, enumerators,
// namespaces, parameters, variables, range-for and structured-binding names.
#define CUDA_TWICE(cudaArg) ((cudaArg) * 2)
template <typename cudaT, int CUDA_N> struct cudaBox { cudaT v[CUDA_N]; };
struct Stats {
  static const int CUDA_LIMIT = 4;
  int cudaCount;
  int limit() const { return CUDA_LIMIT + cudaCount; }
};
struct Pair { int a, b; };
using cudaReal = float;
enum cudaMode { CUDA_FAST, CUDA_SLOW };
namespace cudaLocal { inline int one() { return 1; } }

int sum(const int (&cudaValues)[3], cudaMode m) {
  int cudaTotal = 0;
  for (int cudaV : cudaValues) cudaTotal += CUDA_TWICE(cudaV);
  auto [cudaLo, cudaHi] = Pair{1, 2};
  cudaBox<cudaReal, 2> box{};
  return cudaTotal + cudaLo + cudaHi + cudaLocal::one() + (m == CUDA_SLOW) + (int)box.v[0];
}

int late = cudaUndeclaredThing;
