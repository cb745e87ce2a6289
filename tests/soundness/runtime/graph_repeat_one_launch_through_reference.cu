// soundness: must-refuse
// why: one launch per iteration given 'scale', which the loop's update changes through the reference 'next': the argument looks invariant by its own name, but a graph of 16 launches would replay the first 16 values for every batch
// no-edit: R012
// expect: R013 "may change per iteration"
// options: --target cuda --ignore F,L
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("FAIL: %s\n", cudaGetErrorString(err_)); exit(1); } } while (0)
__global__ void add(long long* x, int v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i] * 3 % 999983 + v; }
int main()
{
    const int n = 512, repeat = 40;
    long long* h = (long long*)malloc(n * sizeof(long long));
    long long* want = (long long*)malloc(n * sizeof(long long));
    for (int i = 0; i < n; ++i) h[i] = want[i] = i % 9;
    long long* d;
    CHECK(cudaMalloc(&d, n * sizeof(long long)));
    CHECK(cudaMemcpy(d, h, n * sizeof(long long), cudaMemcpyHostToDevice));
    int scale = 1;
    int& next = scale;
    for (int it = 0; it < repeat; ++it, next += 2) {
        add<<<(n + 127) / 128, 128>>>(d, scale, n);
    }
    CHECK(cudaMemcpy(h, d, n * sizeof(long long), cudaMemcpyDeviceToHost));
    int v = 1;
    for (int it = 0; it < repeat; ++it, v += 2)
        for (int i = 0; i < n; ++i) want[i] = want[i] * 3 % 999983 + v;
    int bad = 0;
    for (int i = 0; i < n; ++i) if (h[i] != want[i]) ++bad;
    CHECK(cudaFree(d));
    free(h);
    free(want);
    if (bad) { printf("FAIL: %d wrong\n", bad); return 1; }
    printf("PASS\n");
    return 0;
}
