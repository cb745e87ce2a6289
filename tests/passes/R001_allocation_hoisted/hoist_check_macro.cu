// cu2hip-options: --ignore L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void twice(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }

// Hoisted: a loop-invariant size, a pointer only launches and copies see, the free last.
void run(const float* h, float* out, int n) {
    const int iters = 50;
    for (int it = 0; it < iters; ++it) {
        float* d;
        CHECK(cudaMalloc(&d, n * sizeof(float)));
        CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
        twice<<<(n + 255) / 256, 256>>>(d, n);
        CHECK(cudaMemcpy(out, d, n * sizeof(float), cudaMemcpyDeviceToHost));
        CHECK(cudaFree(d));
    }
}
// Declared before the loop, a do loop (runs once at least), two pairs freed at the end.
void pairs(float* out, int n) {
    float* a;
    float* b;
    int it = 0;
    do {
        ++it;
        cudaMalloc((void**)&a, n * sizeof(float));
        cudaMalloc((void**)&b, n * sizeof(float));
        twice<<<1, 256>>>(a, n);
        cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice);
        cudaMemcpy(out, b + 1, (n - 1) * sizeof(float), cudaMemcpyDeviceToHost);
        cudaFree(a);
        cudaFree(b);
    } while (it < 4);
}
