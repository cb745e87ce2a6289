// Thrust: device_vector construction, a saxpy-style transform with a functor,
// sort, reduce and a transform_reduce, all on integers and checked exactly
// against the equivalent std:: algorithms on the host.
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t e_ = (call);                                                    \
        if (e_ != cudaSuccess) {                                                    \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

struct saxpy_op {
    int a;
    __host__ __device__ int operator()(int x, int y) const { return a * x + y; }
};

struct square_op {
    __host__ __device__ long long operator()(int v) const { return (long long)v * v; }
};

static std::vector<int> make_input(size_t n, unsigned seed)
{
    std::vector<int> v(n);
    for (auto& x : v) {
        seed = seed * 1103515245u + 12345u;
        x = static_cast<int>((seed >> 8) % 20001) - 10000;
    }
    return v;
}

static int run()
{
    const size_t n = 100000;
    const int a = 3;
    std::vector<int> hx = make_input(n, 7u);
    std::vector<int> hy(n);
    std::iota(hy.begin(), hy.end(), -50000);

    thrust::device_vector<int> x(hx.begin(), hx.end());
    thrust::device_vector<int> y(n);
    thrust::sequence(y.begin(), y.end(), -50000);

    thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy_op{a});
    thrust::sort(y.begin(), y.end());
    long long sum = thrust::reduce(y.begin(), y.end(), 0LL, thrust::plus<long long>());
    long long sumsq = thrust::transform_reduce(y.begin(), y.end(), square_op{}, 0LL,
                                               thrust::plus<long long>());
    CHECK(cudaDeviceSynchronize());

    thrust::host_vector<int> got = y;

    std::vector<int> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = a * hx[i] + hy[i];
    std::sort(want.begin(), want.end());
    long long want_sum = std::accumulate(want.begin(), want.end(), 0LL);
    long long want_sumsq = 0;
    for (int v : want) want_sumsq += (long long)v * v;

    int bad = 0;
    for (size_t i = 0; i < n; ++i) {
        if (got[i] != want[i]) {
            if (bad < 8) fprintf(stderr, "sorted[%zu] = %d, want %d\n", i, got[i], want[i]);
            ++bad;
        }
    }
    if (sum != want_sum) { fprintf(stderr, "sum %lld want %lld\n", sum, want_sum); ++bad; }
    if (sumsq != want_sumsq) { fprintf(stderr, "sumsq %lld want %lld\n", sumsq, want_sumsq); ++bad; }
    return bad;
}

int main()
{
    int bad = 0;
    try {
        bad = run();
    } catch (const thrust::system_error& e) {
        fprintf(stderr, "thrust error: %s\n", e.what());
        return 1;
    }
    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
