// soundness: must-apply
// why: the loop's counter is a std::uint32_t (a fixed-width integer named through std::), compared with a repeat count parsed once from argv; the buffer is allocated once before the loop under the first iteration's condition, the counter's start converted to its type, and freed after it under the same condition; each iteration copies in, adds its own count and copies back, so every result is the same
// edit: R001 "if ((std::uint32_t)0 < repeat) { CHECK(cudaMalloc(&d, bytes)); }"
// edit: R001 "if ((std::uint32_t)0 < repeat) { CHECK(cudaFree(d)); }"
// options: --target cuda
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void add(const float* in, float* out, float v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i] + v; }
int main(int argc, char** argv)
{
    const std::uint32_t repeat = argc > 1 ? (std::uint32_t)atoi(argv[1]) : 12;
    const int n = 1 << 15;
    const size_t bytes = n * sizeof(float);
    float* h = (float*)malloc(bytes);
    float* out = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 31);
    double sum = 0.0;
    for (std::uint32_t it = 0; it < repeat; ++it) {
        float* d;
        CHECK(cudaMalloc(&d, bytes));
        CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
        add<<<(n + 255) / 256, 256>>>(d, d, (float)it, n);
        CHECK(cudaMemcpy(out, d, bytes, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) sum += out[i];
        CHECK(cudaFree(d));
    }
    double want = 0.0;
    for (std::uint32_t it = 0; it < repeat; ++it)
        for (int i = 0; i < n; ++i) want += (double)(i % 31) + it;
    free(out);
    free(h);
    if (sum != want) { printf("FAIL: sum %.1f, want %.1f\n", sum, want); return 1; }
    printf("PASS sum %.1f\n", sum);
    return 0;
}
