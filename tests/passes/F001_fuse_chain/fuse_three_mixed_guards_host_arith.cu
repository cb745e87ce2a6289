// cu2hip-options: --target cuda --ignore L
// Guards written both ways, host arithmetic and error checks between the launches; t is
// read on the host after the chain, so its store stays.
#include <cstdio>
#include <cstdlib>
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "%s\n", cudaGetErrorString(e)); exit(1); } } while (0)

__device__ float relu(float v) { return v > 0.0f ? v : 0.0f; }

__global__ void axpb(const float *x, float *t, float a, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    t[i] = a * x[i] + b;
}

__global__ void activate(float *t, int n) {
    const int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < n) {
        t[idx] = relu(t[idx]);
    }
}

__global__ void scale_into(const float *t, float *y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float r = t[i] * s;
    for (int k = 0; k < 2; ++k)
        r = relu(r - 0.5f);
    y[i] = r;
}

void run(float *t_host, int n, float alpha) {
    float *x, *t, *y;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&t, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    int blocks = (n + 127) / 128;
    axpb<<<blocks, 128>>>(x, t, alpha, 1.0f, n);
    CHECK(cudaGetLastError());
    float twice = alpha * 2.0f;
    activate<<<blocks, 128>>>(t, n);
    CHECK(cudaGetLastError());
    scale_into<<<blocks, 128>>>(t, y, twice, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(t_host, t, n * sizeof(float), cudaMemcpyDeviceToHost));
    cudaFree(x);
    cudaFree(t);
    cudaFree(y);
}
