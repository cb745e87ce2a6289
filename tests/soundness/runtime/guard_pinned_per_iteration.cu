// soundness: must-apply
// why: a pinned staging buffer is allocated and freed per iteration of a loop bounded by a parameter; each iteration ends with a blocking copy back, so hoisted under `0 < rounds` the buffer is reused by iterations that each overwrite it before copying, and the results are the same
// edit: R001 "if (0 < rounds) cudaMallocHost(&stage, n * sizeof(float));"
// edit: R001 "if (0 < rounds) cudaFreeHost(stage);"
// options: --target cuda
#include <cstdio>
__global__ void square(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * x[i]; }
double rounds_of(float* d, int n, int rounds)
{
    double sum = 0.0;
    for (int r = 0; r < rounds; ++r) {
        float* stage;
        cudaMallocHost(&stage, n * sizeof(float));
        for (int i = 0; i < n; ++i) stage[i] = (float)(r + i % 7);
        cudaMemcpy(d, stage, n * sizeof(float), cudaMemcpyHostToDevice);
        square<<<(n + 255) / 256, 256>>>(d, n);
        cudaMemcpy(stage, d, n * sizeof(float), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; ++i) sum += stage[i];
        cudaFreeHost(stage);
    }
    return sum;
}
int main()
{
    const int n = 1 << 15;
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    double got = rounds_of(d, n, 5), none = rounds_of(d, n, 0), want = 0.0;
    for (int r = 0; r < 5; ++r) for (int i = 0; i < n; ++i) want += (double)(r + i % 7) * (r + i % 7);
    cudaFree(d);
    if (got != want || none != 0.0) { printf("FAIL: %.1f want %.1f, %.1f\n", got, want, none); return 1; }
    printf("PASS %.1f\n", got);
    return 0;
}
