// soundness: must-apply
// why: a stream is created and destroyed per iteration of a loop bounded by argv; hoisted under `0 < repeat`, every iteration's work runs on one stream in order (more ordering, never less) and each iteration still synchronises the stream before reading
// edit: R003 "if (0 < repeat) cudaStreamCreate(&s);"
// edit: R003 "if (0 < repeat) cudaStreamDestroy(s);"
// options: --target cuda
#include <cstdio>
#include <cstdlib>
__global__ void add(float* x, int n, float v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += v; }
int main(int argc, char** argv)
{
    const int repeat = argc > 1 ? atoi(argv[1]) : 12;
    const int n = 1 << 14;
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemset(d, 0, n * sizeof(float));
    static float h[1 << 14];
    double total = 0.0;
    for (int it = 0; it < repeat; ++it) {
        cudaStream_t s;
        cudaStreamCreate(&s);
        add<<<(n + 255) / 256, 256, 0, s>>>(d, n, 1.0f);
        cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s);
        total += h[n - 1];
        cudaStreamDestroy(s);
    }
    cudaFree(d);
    double want = repeat * (repeat + 1) / 2.0;
    if (total != want) { printf("FAIL: %.1f, want %.1f\n", total, want); return 1; }
    printf("PASS %.1f\n", total);
    return 0;
}
