// Half precision: scalar __half add/mul/fma and packed half2 arithmetic,
// compared against float references on the host within a tolerance that
// covers fp16 rounding of the inputs and outputs.
#include <cuda_fp16.h>
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

// Converts float inputs to half on the device.
__global__ void to_half(const float* in, __half* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __float2half(in[i]);
}

// Scalar half arithmetic: sum = a + b, prod = a * b, fma = a * b + 0.25
__global__ void half_scalar(const __half* a, const __half* b, float* sum, float* prod, float* fma, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half s = __hadd(a[i], b[i]);
    __half p = __hmul(a[i], b[i]);
    __half f = __hfma(a[i], b[i], __float2half(0.25f));
    sum[i] = __half2float(s);
    prod[i] = __half2float(p);
    fma[i] = __half2float(f);
}

// Packed arithmetic on pairs: out = (x + y) * y for both lanes.
__global__ void half2_pairs(const float* x, const float* y, float* out, int npairs)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npairs) return;
    __half2 hx = __floats2half2_rn(x[2 * i], x[2 * i + 1]);
    __half2 hy = __floats2half2_rn(y[2 * i], y[2 * i + 1]);
    __half2 r = __hmul2(__hadd2(hx, hy), hy);
    out[2 * i] = __low2float(r);
    out[2 * i + 1] = __high2float(r);
}

static bool close_enough(float got, float want) { return std::fabs(got - want) <= 1e-2f + 4e-3f * std::fabs(want); }

int main()
{
    const int n = 4096;  // even: half2 kernel works on pairs
    std::vector<float> ha(n), hb(n);
    for (int i = 0; i < n; ++i) {
        ha[i] = -4.0f + 8.0f * static_cast<float>((i * 37) % 1000) / 1000.0f;
        hb[i] = -4.0f + 8.0f * static_cast<float>((i * 91 + 13) % 1000) / 1000.0f;
    }

    float *d_fa, *d_fb, *d_sum, *d_prod, *d_fma, *d_pair;
    __half *d_ha, *d_hb;
    CHECK(cudaMalloc(&d_fa, n * sizeof(float)));
    CHECK(cudaMalloc(&d_fb, n * sizeof(float)));
    CHECK(cudaMalloc(&d_sum, n * sizeof(float)));
    CHECK(cudaMalloc(&d_prod, n * sizeof(float)));
    CHECK(cudaMalloc(&d_fma, n * sizeof(float)));
    CHECK(cudaMalloc(&d_pair, n * sizeof(float)));
    CHECK(cudaMalloc(&d_ha, n * sizeof(__half)));
    CHECK(cudaMalloc(&d_hb, n * sizeof(__half)));
    CHECK(cudaMemcpy(d_fa, ha.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_fb, hb.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    const int threads = 128;
    const int blocks = (n + threads - 1) / threads;
    to_half<<<blocks, threads>>>(d_fa, d_ha, n);
    to_half<<<blocks, threads>>>(d_fb, d_hb, n);
    half_scalar<<<blocks, threads>>>(d_ha, d_hb, d_sum, d_prod, d_fma, n);
    half2_pairs<<<(n / 2 + threads - 1) / threads, threads>>>(d_fa, d_fb, d_pair, n / 2);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<float> sum(n), prod(n), fma(n), pair(n);
    CHECK(cudaMemcpy(sum.data(), d_sum, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(prod.data(), d_prod, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(fma.data(), d_fma, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(pair.data(), d_pair, n * sizeof(float), cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float a = ha[i], b = hb[i];
        bool ok = close_enough(sum[i], a + b) && close_enough(prod[i], a * b) &&
                  close_enough(fma[i], a * b + 0.25f) && close_enough(pair[i], (a + b) * b);
        if (!ok) {
            if (bad < 8)
                fprintf(stderr, "i=%d a=%f b=%f: sum %f prod %f fma %f pair %f\n", i, a, b, sum[i],
                        prod[i], fma[i], pair[i]);
            ++bad;
        }
    }

    for (void* p : {(void*)d_fa, (void*)d_fb, (void*)d_sum, (void*)d_prod, (void*)d_fma,
                    (void*)d_pair, (void*)d_ha, (void*)d_hb})
        CHECK(cudaFree(p));

    if (bad) {
        printf("FAIL: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
