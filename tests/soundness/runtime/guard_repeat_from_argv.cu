// soundness: must-apply
// why: the repeat count and the size are parsed once from argv into locals the loop never writes; the buffer is allocated once before the loop under `0 < repeat` (the loop's first-iteration condition) and freed after it under the same condition; each iteration copies in, doubles and copies back, so every result is the same
// edit: R001 "if (0 < repeat) { CHECK(cudaMalloc(&d, bytes)); }"
// edit: R001 "if (0 < repeat) { CHECK(cudaFree(d)); }"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void twice(const float* in, float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 2.0f * in[i]; }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 20;
    const int n = argc > 2 ? atoi(argv[2]) : 1 << 16;
    const size_t bytes = n * sizeof(float);
    float* h = (float*)malloc(bytes);
    float* out = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 97);
    double sum = 0.0;
    for (int it = 0; it < repeat; ++it) {
        float* d;
        CHECK(cudaMalloc(&d, bytes));
        float* e;
        CHECK(cudaMalloc(&e, bytes));
        CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
        twice<<<(n + 255) / 256, 256>>>(d, e, n);
        CHECK(cudaMemcpy(out, e, bytes, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; ++i) sum += out[i];
        CHECK(cudaFree(e));
        CHECK(cudaFree(d));
    }
    double want = 0.0;
    for (int i = 0; i < n; ++i) want += 2.0 * (i % 97);
    want *= repeat;
    free(out);
    free(h);
    if (sum != want) { printf("FAIL: sum %.1f, want %.1f\n", sum, want); return 1; }
    printf("PASS sum %.1f\n", sum);
    return 0;
}
