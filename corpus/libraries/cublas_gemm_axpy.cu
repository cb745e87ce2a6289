// cuBLAS: single-precision GEMM on small column-major matrices checked against a
// host GEMM, followed by an AXPY on the result. Inputs are small integers so the
// products are exactly representable; a small tolerance is still applied.
#include <cublas_v2.h>
#include <cuda_runtime.h>
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

#define CUBLAS_CHECK(call)                                                          \
    do {                                                                            \
        cublasStatus_t s_ = (call);                                                 \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                          \
            fprintf(stderr, "%s:%d: cublas status %d\n", __FILE__, __LINE__, (int)s_); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

// Column-major host reference: C = alpha * A(m x k) * B(k x n) + beta * C
static void host_gemm(int m, int n, int k, float alpha, const std::vector<float>& A,
                      const std::vector<float>& B, float beta, std::vector<float>& C)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double acc = 0.0;
            for (int p = 0; p < k; ++p) acc += (double)A[i + p * m] * B[p + j * k];
            C[i + j * m] = static_cast<float>(alpha * acc + beta * C[i + j * m]);
        }
}

static void fill(std::vector<float>& v, unsigned seed)
{
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = static_cast<float>(static_cast<int>((seed >> 16) % 9) - 4);  // -4..4
    }
}

template <typename T>
static T* to_device(const std::vector<T>& h)
{
    T* d = nullptr;
    CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
    CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

int main()
{
    const int M = 64, N = 48, K = 32;
    std::vector<float> A(M * K), B(K * N), C(M * N), X(M * N);
    fill(A, 1u);
    fill(B, 2u);
    fill(C, 3u);
    fill(X, 4u);
    const float alpha = 0.5f, beta = 2.0f, a = -1.5f;

    float* dA = to_device(A);
    float* dB = to_device(B);
    float* dC = to_device(C);
    float* dX = to_device(X);

    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUBLAS_CHECK(cublasSetStream(handle, stream));

    CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, dA, M, dB, K,
                             &beta, dC, M));
    // C := a * X + C
    CUBLAS_CHECK(cublasSaxpy(handle, M * N, &a, dX, 1, dC, 1));

    std::vector<float> got(M * N);
    CHECK(cudaMemcpyAsync(got.data(), dC, got.size() * sizeof(float), cudaMemcpyDeviceToHost,
                          stream));
    CHECK(cudaStreamSynchronize(stream));

    std::vector<float> want = C;
    host_gemm(M, N, K, alpha, A, B, beta, want);
    for (size_t i = 0; i < want.size(); ++i) want[i] += a * X[i];

    int bad = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        if (std::fabs(got[i] - want[i]) > 1e-3f * (1.0f + std::fabs(want[i]))) {
            if (bad < 8) fprintf(stderr, "C[%zu] = %f, want %f\n", i, got[i], want[i]);
            ++bad;
        }
    }

    CUBLAS_CHECK(cublasDestroy(handle));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    CHECK(cudaFree(dX));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
