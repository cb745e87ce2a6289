// cuFFT: batched 1D complex-to-complex forward transform of known signals,
// spectrum peaks checked, then the inverse transform and a normalisation kernel
// to check the round trip reproduces the input.
#include <cuda_runtime.h>
#include <cufft.h>
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

#define CUFFT_CHECK(call)                                                           \
    do {                                                                            \
        cufftResult r_ = (call);                                                    \
        if (r_ != CUFFT_SUCCESS) {                                                  \
            fprintf(stderr, "%s:%d: cufft error %d\n", __FILE__, __LINE__, (int)r_); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

__global__ void scale_complex(cufftComplex* data, int count, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        data[i].x *= s;
        data[i].y *= s;
    }
}

int main()
{
    const int N = 1024, batch = 2, freq0 = 5, freq1 = 37;
    const double two_pi = 6.28318530717958647692;
    std::vector<cufftComplex> h(N * batch);
    for (int i = 0; i < N; ++i) {
        // phases reduced exactly in integers, evaluated in double
        double p0 = two_pi * ((freq0 * i) % N) / N;
        double p1 = two_pi * ((freq1 * i) % N) / N;
        h[i].x = static_cast<float>(std::cos(p0));   // batch 0: real cosine
        h[i].y = 0.0f;
        h[N + i].x = static_cast<float>(std::cos(p1));   // batch 1: complex exponential
        h[N + i].y = static_cast<float>(std::sin(p1));
    }

    cufftComplex* d = nullptr;
    CHECK(cudaMalloc(&d, h.size() * sizeof(cufftComplex)));
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(cufftComplex), cudaMemcpyHostToDevice));

    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    cufftHandle plan;
    CUFFT_CHECK(cufftPlan1d(&plan, N, CUFFT_C2C, batch));
    CUFFT_CHECK(cufftSetStream(plan, stream));

    CUFFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
    std::vector<cufftComplex> spec(h.size());
    CHECK(cudaMemcpyAsync(spec.data(), d, spec.size() * sizeof(cufftComplex),
                          cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));

    int bad = 0;
    const float tol_spec = 1e-2f;
    for (int k = 0; k < N; ++k) {
        // cos -> N/2 at +-freq0; exp(i w t) -> N at freq1
        float want0 = (k == freq0 || k == N - freq0) ? N / 2.0f : 0.0f;
        float want1 = (k == freq1) ? static_cast<float>(N) : 0.0f;
        float mag0 = std::hypot(spec[k].x, spec[k].y);
        float mag1 = std::hypot(spec[N + k].x, spec[N + k].y);
        if (std::fabs(mag0 - want0) > tol_spec || std::fabs(mag1 - want1) > tol_spec) {
            if (bad < 8) fprintf(stderr, "bin %d: |X0| %f want %f, |X1| %f want %f\n", k, mag0, want0, mag1, want1);
            ++bad;
        }
    }

    CUFFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_INVERSE));
    const int total = N * batch;
    scale_complex<<<(total + 255) / 256, 256, 0, stream>>>(d, total, 1.0f / N);
    CHECK(cudaGetLastError());
    std::vector<cufftComplex> back(h.size());
    CHECK(cudaMemcpyAsync(back.data(), d, back.size() * sizeof(cufftComplex),
                          cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));

    for (int i = 0; i < total; ++i) {
        if (std::fabs(back[i].x - h[i].x) > 1e-4f || std::fabs(back[i].y - h[i].y) > 1e-4f) {
            if (bad < 8) fprintf(stderr, "round trip [%d]: (%f,%f) want (%f,%f)\n", i, back[i].x, back[i].y, h[i].x, h[i].y);
            ++bad;
        }
    }

    CUFFT_CHECK(cufftDestroy(plan));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
