// A reduction kernel templated on element type, block size and operator,
// instantiated for float, double and int. Dynamic shared memory is sized in
// the launch configuration: block_reduce<T, BLOCK><<<grid, BLOCK, bytes, s>>>.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <vector>
#include <cuda_runtime.h>

#include "reduce_ops.cuh"

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
              cudaGetErrorString(e_));                                       \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

template <typename T, int BLOCK, typename Op>
T device_reduce(const std::vector<T>& h, T identity, Op op, cudaStream_t stream) {
  const int n = static_cast<int>(h.size());
  const int grid = 64;
  T *d_in = nullptr, *d_partial = nullptr, *d_result = nullptr;
  CHECK(cudaMalloc(&d_in, n * sizeof(T)));
  CHECK(cudaMalloc(&d_partial, grid * sizeof(T)));
  CHECK(cudaMalloc(&d_result, sizeof(T)));
  CHECK(cudaMemcpyAsync(d_in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice, stream));

  const size_t smem = BLOCK * sizeof(T);
  block_reduce<T, BLOCK><<<grid, BLOCK, smem, stream>>>(d_in, d_partial, n, identity, op);
  CHECK(cudaGetLastError());
  block_reduce<T, BLOCK, Op><<<1, BLOCK, smem, stream>>>(d_partial, d_result, grid,
                                                         identity, op);
  CHECK(cudaGetLastError());

  T result{};
  CHECK(cudaMemcpyAsync(&result, d_result, sizeof(T), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_result));
  return result;
}

template <typename T>
std::vector<T> make_input(int n) {
  std::vector<T> v(n);
  unsigned int state = 12345u;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    int r = static_cast<int>((state >> 8) % 2001u) - 1000;  // [-1000, 1000]
    v[i] = static_cast<T>(r) / static_cast<T>(std::is_integral<T>::value ? 1 : 1000);
  }
  return v;
}

// Sums: exact for int; for floating point within rel_tol * sum(|x|), which
// bounds the rounding error of any summation order up to a small factor.
template <typename T, int BLOCK>
int check_type(const char* name, int n, double rel_tol, cudaStream_t stream) {
  std::vector<T> h = make_input<T>(n);
  double ref_sum = 0.0, abs_sum = 0.0;
  T ref_max = std::numeric_limits<T>::lowest();
  for (T x : h) {
    ref_sum += static_cast<double>(x);
    abs_sum += std::fabs(static_cast<double>(x));
    ref_max = x > ref_max ? x : ref_max;
  }
  T got_sum = device_reduce<T, BLOCK>(h, T(0), SumOp(), stream);
  T got_max = device_reduce<T, BLOCK>(h, std::numeric_limits<T>::lowest(), MaxOp(), stream);

  int bad = 0;
  double err = std::fabs(static_cast<double>(got_sum) - ref_sum);
  if (!(err <= rel_tol * abs_sum)) {
    fprintf(stderr, "%s sum: got %.17g, want %.17g\n", name,
            static_cast<double>(got_sum), ref_sum);
    ++bad;
  }
  if (got_max != ref_max) {
    fprintf(stderr, "%s max: got %.17g, want %.17g\n", name,
            static_cast<double>(got_max), static_cast<double>(ref_max));
    ++bad;
  }
  return bad;
}

int main() {
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  const int n = 1 << 20;
  int bad = 0;
  bad += check_type<float, 256>("float", n, 2e-5, stream);
  bad += check_type<double, 128>("double", n, 1e-12, stream);
  bad += check_type<int, 512>("int", n, 0.0, stream);
  bad += check_type<float, 64>("float/64", n / 3 + 7, 2e-5, stream);
  CHECK(cudaStreamDestroy(stream));
  if (bad) {
    printf("FAIL: %d reductions wrong\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
