// cuRAND host API: uniform and normal generation into device memory on a stream,
// a GPU histogram of the uniforms (atomics) checked exactly against the host,
// statistics checked within tolerance, and reproducibility across two generators.
#include <cuda_runtime.h>
#include <curand.h>
#include <cmath>
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

#define CURAND_CHECK(call)                                                          \
    do {                                                                            \
        curandStatus_t s_ = (call);                                                 \
        if (s_ != CURAND_STATUS_SUCCESS) {                                          \
            fprintf(stderr, "%s:%d: curand status %d\n", __FILE__, __LINE__, (int)s_); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

constexpr int kBins = 10;

__global__ void histogram(const float* u, size_t n, unsigned int* bins)
{
    __shared__ unsigned int local[kBins];
    if (threadIdx.x < kBins) local[threadIdx.x] = 0;
    __syncthreads();
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        int b = static_cast<int>(u[i] * kBins);
        atomicAdd(&local[b < kBins ? b : kBins - 1], 1u);
    }
    __syncthreads();
    if (threadIdx.x < kBins) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

static curandGenerator_t make_generator(unsigned long long seed, cudaStream_t stream)
{
    curandGenerator_t gen;
    CURAND_CHECK(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, seed));
    CURAND_CHECK(curandSetStream(gen, stream));
    return gen;
}

int main()
{
    const size_t n = 1 << 20;  // even, as curandGenerateNormal requires
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));

    float *d_u, *d_u2, *d_z;
    unsigned int* d_bins;
    CHECK(cudaMalloc(&d_u, n * sizeof(float)));
    CHECK(cudaMalloc(&d_u2, n * sizeof(float)));
    CHECK(cudaMalloc(&d_z, n * sizeof(float)));
    CHECK(cudaMalloc(&d_bins, kBins * sizeof(unsigned int)));
    CHECK(cudaMemsetAsync(d_bins, 0, kBins * sizeof(unsigned int), stream));

    curandGenerator_t gen = make_generator(1234ULL, stream);
    curandGenerator_t twin = make_generator(1234ULL, stream);
    CURAND_CHECK(curandGenerateUniform(gen, d_u, n));
    CURAND_CHECK(curandGenerateUniform(twin, d_u2, n));
    CURAND_CHECK(curandGenerateNormal(gen, d_z, n, 0.0f, 1.0f));

    histogram<<<64, 256, 0, stream>>>(d_u, n, d_bins);
    CHECK(cudaGetLastError());

    std::vector<float> u(n), u2(n), z(n);
    unsigned int bins[kBins];
    CHECK(cudaMemcpyAsync(u.data(), d_u, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaMemcpyAsync(u2.data(), d_u2, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaMemcpyAsync(z.data(), d_z, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaMemcpyAsync(bins, d_bins, sizeof(bins), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));

    int failures = 0;
    unsigned int host_bins[kBins] = {};
    double sum = 0.0, sumsq = 0.0;
    size_t out_of_range = 0, differ = 0;
    for (size_t i = 0; i < n; ++i) {
        float v = u[i];
        if (!(v > 0.0f && v <= 1.0f)) ++out_of_range;
        if (v != u2[i]) ++differ;
        int b = static_cast<int>(v * kBins);
        ++host_bins[b < kBins ? b : kBins - 1];
        sum += v;
        sumsq += (double)v * v;
    }
    double mean = sum / n, var = sumsq / n - mean * mean;
    if (out_of_range) { fprintf(stderr, "%zu uniforms outside (0,1]\n", out_of_range); ++failures; }
    if (differ) { fprintf(stderr, "%zu values differ between same-seed generators\n", differ); ++failures; }
    if (fabs(mean - 0.5) > 0.005) { fprintf(stderr, "uniform mean %f\n", mean); ++failures; }
    if (fabs(var - 1.0 / 12.0) > 0.002) { fprintf(stderr, "uniform variance %f\n", var); ++failures; }
    for (int b = 0; b < kBins; ++b) {
        if (bins[b] != host_bins[b]) {
            fprintf(stderr, "bin %d: device %u host %u\n", b, bins[b], host_bins[b]);
            ++failures;
        }
        if (fabs((double)bins[b] - (double)n / kBins) > 0.02 * n / kBins) {
            fprintf(stderr, "bin %d count %u far from %zu\n", b, bins[b], n / kBins);
            ++failures;
        }
    }

    double zs = 0.0, zss = 0.0;
    for (size_t i = 0; i < n; ++i) { zs += z[i]; zss += (double)z[i] * z[i]; }
    double zmean = zs / n, zvar = zss / n - zmean * zmean;
    if (fabs(zmean) > 0.01 || fabs(zvar - 1.0) > 0.02) {
        fprintf(stderr, "normal mean %f variance %f\n", zmean, zvar);
        ++failures;
    }

    CURAND_CHECK(curandDestroyGenerator(gen));
    CURAND_CHECK(curandDestroyGenerator(twin));
    CHECK(cudaFree(d_u));
    CHECK(cudaFree(d_u2));
    CHECK(cudaFree(d_z));
    CHECK(cudaFree(d_bins));
    CHECK(cudaStreamDestroy(stream));

    if (failures) {
        printf("FAIL: %d checks failed\n", failures);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
