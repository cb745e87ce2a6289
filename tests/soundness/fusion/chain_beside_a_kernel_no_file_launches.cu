// soundness: must-apply
// why: fusion takes the first round, and launch bounds runs on its output, where the stages' launches are the fused kernel's one: the fused kernel is bounded by its launch (fusion writes the bound), the stages (launched by the input) are not called unlaunched, and idle, which nothing launches, is not bounded and is said to be so (L003) once
// edit: F001 "fused_first_second"
// edit: F001 "__global__ void __launch_bounds__(256) fused_first_second"
// expect: L003 "idle is launched from no translated file: not bounded"
// output-lacks: "void __launch_bounds__(256) idle("
#include <cstdio>
#include <cstdlib>
__global__ void idle(float* x) { x[threadIdx.x] = -1.0f; }

__global__ void first(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

__global__ void second(const float* __restrict__ y, float* __restrict__ z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = y[i] + 1.0f;
}

static void run(const float* __restrict__ x, float* __restrict__ y, float* __restrict__ z, int n)
{
    first<<<(n + 255) / 256, 256>>>(x, y, n);
    second<<<(n + 255) / 256, 256>>>(y, z, n);
}

int main()
{
    const int n = 1000;
    float h[n], hy[n], hz[n];
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 13);
    float *x, *y, *z;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMalloc(&z, n * sizeof(float));
    cudaMemcpy(x, h, n * sizeof(float), cudaMemcpyHostToDevice);
    run(x, y, z, n);
    cudaMemcpy(hy, y, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hz, z, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) if (hy[i] != 2.0f * h[i] || hz[i] != 2.0f * h[i] + 1.0f) ++bad;
    cudaFree(x);
    cudaFree(y);
    cudaFree(z);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
