// soundness: must-apply
// why: the loop's bound is the function's parameter, which nothing writes: allocated once before the loop under `0 < iters` and freed after it under it; called with 3 and with 0 iterations, the sums are those of the original
// edit: R001 "if (0 < iters) cudaMalloc(&d, n * sizeof(int));"
// edit: R001 "if (0 < iters) cudaFree(d);"
// options: --target cuda
#include <cstdio>
__global__ void iota(int* x, int n, int base) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = base + i; }
long long run(int* host, int n, int iters)
{
    long long sum = 0;
    for (int it = 0; it < iters; ++it) {
        int* d;
        cudaMalloc(&d, n * sizeof(int));
        iota<<<(n + 127) / 128, 128>>>(d, n, it);
        cudaMemcpy(host, d, n * sizeof(int), cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; ++i) sum += host[i];
        cudaFree(d);
    }
    return sum;
}
int main()
{
    const int n = 5000;
    static int host[5000];
    long long three = run(host, n, 3), none = run(host, n, 0);
    long long want = 0;
    for (int it = 0; it < 3; ++it) for (int i = 0; i < n; ++i) want += it + i;
    if (three != want || none != 0) { printf("FAIL: %lld (want %lld), %lld (want 0)\n", three, want, none); return 1; }
    printf("PASS %lld\n", three);
    return 0;
}
