// bfloat16 storage with float arithmetic: a templated axpby kernel is
// instantiated for float and __nv_bfloat16, and a bf16 dot product accumulates
// in float. bf16 results are compared with the float path within a tolerance
// that covers bf16's 8-bit significand.
#include <cuda_bf16.h>
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

template <typename T> struct Conv;
template <> struct Conv<float> {
    __device__ static float load(float v) { return v; }
    __device__ static float store(float v) { return v; }
};
template <> struct Conv<__nv_bfloat16> {
    __device__ static float load(__nv_bfloat16 v) { return __bfloat162float(v); }
    __device__ static __nv_bfloat16 store(float v) { return __float2bfloat16(v); }
};

template <typename T>
__global__ void from_float(const float* in, T* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = Conv<T>::store(in[i]);
}

// z = alpha * x + beta * y, computed in float, stored as T
template <typename T>
__global__ void axpby(float alpha, const T* x, float beta, const T* y, T* z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = Conv<T>::store(alpha * Conv<T>::load(x[i]) + beta * Conv<T>::load(y[i]));
}

// One partial dot product per block; blockDim.x must be 256.
__global__ void dot_bf16(const __nv_bfloat16* x, const __nv_bfloat16* y, float* partial, int n)
{
    __shared__ float cache[256];
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += __bfloat162float(x[i]) * __bfloat162float(y[i]);
    cache[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = cache[0];
}

template <typename T>
static void run_axpby(const float* d_x, const float* d_y, float alpha, float beta, int n,
                      std::vector<float>& result)
{
    T *x, *y, *z;
    CHECK(cudaMalloc(&x, n * sizeof(T)));
    CHECK(cudaMalloc(&y, n * sizeof(T)));
    CHECK(cudaMalloc(&z, n * sizeof(T)));
    const int threads = 256, blocks = (n + threads - 1) / threads;
    from_float<T><<<blocks, threads>>>(d_x, x, n);
    from_float<T><<<blocks, threads>>>(d_y, y, n);
    axpby<T><<<blocks, threads>>>(alpha, x, beta, y, z, n);
    CHECK(cudaGetLastError());
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), z, n * sizeof(T), cudaMemcpyDeviceToHost));
    result.resize(n);
    for (int i = 0; i < n; ++i) result[i] = static_cast<float>(h[i]);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(z));
}

int main()
{
    const int n = 8192, dot_blocks = 32;
    std::vector<float> hx(n), hy(n);
    for (int i = 0; i < n; ++i) {
        hx[i] = std::sin(0.01f * i) * 3.0f;
        hy[i] = std::cos(0.003f * i) - 0.5f;
    }
    float *d_x, *d_y, *d_partial;
    __nv_bfloat16 *d_bx, *d_by;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    CHECK(cudaMalloc(&d_bx, n * sizeof(__nv_bfloat16)));
    CHECK(cudaMalloc(&d_by, n * sizeof(__nv_bfloat16)));
    CHECK(cudaMalloc(&d_partial, dot_blocks * sizeof(float)));
    CHECK(cudaMemcpy(d_x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    std::vector<float> zf, zb;
    run_axpby<float>(d_x, d_y, 1.5f, -2.0f, n, zf);
    run_axpby<__nv_bfloat16>(d_x, d_y, 1.5f, -2.0f, n, zb);

    from_float<__nv_bfloat16><<<(n + 255) / 256, 256>>>(d_x, d_bx, n);
    from_float<__nv_bfloat16><<<(n + 255) / 256, 256>>>(d_y, d_by, n);
    dot_bf16<<<dot_blocks, 256>>>(d_bx, d_by, d_partial, n);
    CHECK(cudaGetLastError());
    std::vector<float> partial(dot_blocks);
    CHECK(cudaMemcpy(partial.data(), d_partial, dot_blocks * sizeof(float), cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float want = 1.5f * hx[i] - 2.0f * hy[i];
        if (std::fabs(zf[i] - want) > 1e-5f * (1.0f + std::fabs(want)) ||
            std::fabs(zb[i] - want) > 3e-2f * (1.0f + std::fabs(want))) {
            if (bad < 8) fprintf(stderr, "z[%d]: float %f bf16 %f want %f\n", i, zf[i], zb[i], want);
            ++bad;
        }
    }
    double dot = 0.0, want_dot = 0.0, scale = 0.0;
    for (float p : partial) dot += p;
    for (int i = 0; i < n; ++i) {
        want_dot += (double)hx[i] * hy[i];
        scale += std::fabs((double)hx[i] * hy[i]);
    }
    if (std::fabs(dot - want_dot) > 1e-2 * scale) {
        fprintf(stderr, "dot %f want %f (scale %f)\n", dot, want_dot, scale);
        ++bad;
    }

    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_bx));
    CHECK(cudaFree(d_by));
    CHECK(cudaFree(d_partial));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
